// A provider's concurrency quota holds across instances: two instances on one Redis share a
// quota of 4, so at most 4 attempts reach the provider however the requests are spread, and
// the ones over it are refused at once with a 503 that names the quota.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fleet } from '../../src/sim/index.js';
import { startCluster, type Cluster, type Instance } from '../helpers/cluster.js';
import { redisMissing } from '../helpers/redis-server.js';
import { until } from '../helpers/until.js';

const missing = redisMissing();
if (missing) console.log(`# skipped: ${missing}`);

describe('per-provider concurrency quota across instances', { skip: missing ?? false }, () => {
  let cluster: Cluster;
  let fleet: Fleet;
  let nodes: Instance[];
  before(async () => {
    // The provider never answers: admitted attempts hold their slot until the client gives up.
    cluster = await startCluster(2, { seed: 1, providers: { Busy: { models: ['busy/model'], faults: { hang: 1 } } } }, (fleet) => `
providers:
  busy: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Busy')}", maxConcurrency: 4 }
models:
  busy-model: { provider: busy, model: busy/model }
`);
    ({ fleet, nodes } = cluster);
  });
  after(() => cluster?.close());

  test('two instances hold 4 slots between them: 2 each; the rest are refused at once', async () => {
    await until(() => nodes.every((node) => node.gateway.quota?.instances === 2), 'both instances see two in the instance list');
    assert.deepEqual(nodes.map((node) => node.gateway.quota!.share('busy')), [2, 2]);
    const abort = new AbortController();
    const send = (node: Instance) =>
      fetch(`${node.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'busy-model', messages: [{ role: 'user', content: 'Hello!' }] }),
        signal: abort.signal,
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { error?: { code?: string; message?: string } } }), () => null);
    const pending = nodes.flatMap((node) => Array.from({ length: 5 }, () => send(node)));
    const refusals = await until(async () => {
      const settled = await Promise.all(pending.map((p) => Promise.race([p, Promise.resolve(undefined)])));
      const done = settled.filter((r) => r !== undefined && r !== null);
      return done.length === 6 ? done : null;
    }, 'six requests over the quota come back');
    for (const r of refusals) {
      assert.equal(r!.status, 503);
      assert.equal(r!.body.error?.code, 'provider_quota_full');
      assert.match(r!.body.error?.message ?? '', /maxConcurrency/);
    }
    await until(() => fleet.stats().providers.Busy!.requests === 4, 'the four admitted attempts reach the provider');
    abort.abort();
    await Promise.all(pending);
    assert.equal(fleet.stats().providers.Busy!.requests, 4, 'never more than the quota at once');
  });
});
