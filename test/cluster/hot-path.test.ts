// Seed 002's rule for a shared breaker, as issue 6 put it: a request must not wait on Redis.
// Counted at the server rather than timed: Redis's own command statistics before and after a
// few hundred requests on healthy routes, streamed and not, through a role and a direct model.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import type { Fleet } from '../../src/sim/index.js';
import { startCluster, type Cluster, type Instance } from '../helpers/cluster.js';
import { redisMissing } from '../helpers/redis-server.js';

const missing = redisMissing();
if (missing) console.log(`# skipped: ${missing}`);

const SCENARIO = { seed: 5, providers: { Good: { models: ['good/model'], replyTokens: 8 } } };
const config = (fleet: Fleet) => `
providers:
  good: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Good')}" }
models:
  good-model: { provider: good, model: good/model }
roles:
  chat: { tier: degrade, models: [good-model], checks: [nonempty, refusal] }
`;
const HELLO = [{ role: 'user' as const, content: 'Hello!' }];

/** Calls per command since the server started, from INFO commandstats. */
async function commandCounts(client: Redis): Promise<Map<string, number>> {
  const info = await client.info('commandstats');
  const counts = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) counts.set(match[1]!, Number(match[2]));
  return counts;
}

describe('the request path on a Redis store', { skip: missing ?? false }, () => {
  let cluster: Cluster;
  let fleet: Fleet;
  let node: Instance;
  let client: Redis;

  before(async () => {
    cluster = await startCluster(1, SCENARIO, config);
    ({ fleet, nodes: [node] } = cluster as Cluster & { nodes: [Instance] });
    client = new Redis(cluster.redis.url);
  });
  after(async () => {
    client?.disconnect();
    await cluster?.close();
  });

  test('healthy requests send no command to Redis', async () => {
    const REQUESTS = 100;
    const send = async (model: string, stream: boolean) => {
      if (!stream) return void (await node.client.chat.completions.create({ model, messages: HELLO }));
      for await (const _ of await node.client.chat.completions.create({ model, messages: HELLO, stream: true })) void _;
    };
    await send('chat', false); // the first request may settle lazily created state
    const before = await commandCounts(client);
    for (let i = 0; i < REQUESTS; i++) await Promise.all([send('chat', false), send('chat', true), send('good-model', false), send('good-model', true)]);
    const afterCounts = await commandCounts(client);
    const added = [...afterCounts].map(([name, calls]) => [name, calls - (before.get(name) ?? 0)] as const).filter(([, n]) => n > 0);
    // Our own INFO call and the store's keepalive PING (every few seconds, not per request) are
    // the commands expected; anything per request would count in hundreds.
    const others = added.filter(([name]) => name !== 'info' && name !== 'ping');
    assert.deepEqual(others, [], `commands sent during ${REQUESTS * 4} requests: ${added.map(([n, c]) => `${n}=${c}`).join(', ')}`);
    assert.equal(fleet.stats().providers.Good!.requests, REQUESTS * 4 + 1, 'every request reached the healthy route');
  });
});
