// Three instances on one Redis (seed 002, 三态熔断 + 全局单飞探针): a breaker opened through one
// is honoured by all, a recovering route gets exactly one probe from all of them together,
// and runtime blocks, quarantines and audit events reach every instance within a second.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import type { Fleet } from '../../src/sim/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startCluster, type Cluster, type Instance } from '../helpers/cluster.js';
import { redisMissing } from '../helpers/redis-server.js';
import { until } from '../helpers/until.js';

const missing = redisMissing();
if (missing) console.log(`# skipped: ${missing}`);

const TOKEN = 'cluster-admin';
const MODEL = 'deepseek/deepseek-chat';
const SCENARIO = {
  seed: 11,
  balancing: 'ordered',
  providers: {
    Flaky: { models: ['flaky/model'], faults: { error503: 1 } },
    Alpha: { models: [MODEL] },
    Beta: { models: [MODEL] },
    Stray: { models: [MODEL], faults: { prefix: 1 } },
  },
};
const config = (fleet: Fleet) => `
server: { adminToken: "${TOKEN}" }
breaker: { failures: 2, cooldown: 10s, probeTimeout: 30s }
providers:
  flaky:      { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Flaky')}" }
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
models:
  calc-model: { provider: flaky, model: flaky/model }
  chat-main:  { provider: openrouter, model: ${MODEL} }
roles:
  calc: { tier: strict, models: [calc-model] }
  chat: { tier: degrade, models: [chat-main] }
canary: { watch: [chat-main], mode: enforce, failedRounds: 1, capacityFloor: 1, languages: [en] }
`;
const HELLO = [{ role: 'user' as const, content: 'Hello!' }];
const ROUTE = 'calc-model@flaky';
// The probe slot's expiry is Redis' own (wall-clock) time, not the injected clock: long enough
// that a burst on a loaded machine cannot outlast it and let a second probe through; the test
// lets it lapse by hand, after checking it was set to the probe timeout.
const PROBE_TIMEOUT_MS = 30_000;

describe('shared state across three instances', { skip: missing ?? false }, () => {
  let cluster: Cluster;
  let fleet: Fleet;
  let nodes: Instance[];
  let redisClient: Redis;
  const clock = new ManualClock();
  const admin = (node: Instance, method: string, path: string, body?: unknown) =>
    fetch(`${node.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const flakyRequests = () => fleet.stats().providers.Flaky!.requests;
  const status = (p: Promise<unknown>) => p.then(() => 200, (e: { status?: number }) => e.status ?? 0);

  before(async () => {
    cluster = await startCluster(3, SCENARIO, config, clock);
    ({ fleet, nodes } = cluster);
    redisClient = new Redis(cluster.redis.url);
  });
  after(async () => {
    redisClient?.disconnect();
    await cluster?.close();
  });

  test('a breaker opened through A is honoured by B and C, and after the cooldown exactly one of 30 requests probes the route', async () => {
    const [a, b, c] = nodes as [Instance, Instance, Instance];
    for (let i = 0; i < 2; i++) assert.equal(await status(a.client.chat.completions.create({ model: 'calc', messages: HELLO })), 503);
    assert.equal(a.gateway.breakers.state(ROUTE), 'open');
    await until(() => b.gateway.breakers.state(ROUTE) === 'open' && c.gateway.breakers.state(ROUTE) === 'open', 'B and C adopt the open breaker', 1_000);

    const before = flakyRequests();
    assert.equal(await status(b.client.chat.completions.create({ model: 'calc', messages: HELLO })), 503);
    assert.equal(await status(c.client.chat.completions.create({ model: 'calc', messages: HELLO })), 503);
    assert.equal(flakyRequests(), before, 'B and C send nothing to a route A found broken');

    // The cooldown passes on every instance at once; the route still fails.
    clock.advance(10_001);
    const probing = await Promise.all(nodes.flatMap((node) => Array.from({ length: 10 }, () => status(node.client.chat.completions.create({ model: 'calc', messages: HELLO })))));
    assert.equal(flakyRequests(), before + 1, 'one recovery probe across all instances, not one per instance');
    assert.deepEqual(new Set(probing), new Set([503]));
    await until(() => nodes.every((node) => node.gateway.breakers.state(ROUTE) === 'open'), 'the failed probe reopens the breaker everywhere', 1_000);

    // The provider recovers; after the doubled cooldown, and once the last probe's slot has
    // lapsed in Redis, one probe closes the breaker for everyone.
    fleet.setFaults('Flaky', {});
    clock.advance(20_001);
    const slot = `${a.store.prefix}probe:{${ROUTE}}`;
    const left = await redisClient.pttl(slot);
    assert.ok(left > 0 && left <= PROBE_TIMEOUT_MS, `the failed probe's slot is held, lapsing within the probe timeout (${left} ms left)`);
    await redisClient.pexpire(slot, 1);
    await until(async () => (await redisClient.exists(slot)) === 0, 'the probe slot lapses');
    const recovering = await Promise.all(nodes.flatMap((node) => Array.from({ length: 10 }, () => status(node.client.chat.completions.create({ model: 'calc', messages: HELLO })))));
    assert.ok(recovering.includes(200), 'the probe is answered');
    assert.ok(recovering.every((s) => s === 200 || s === 503));
    await until(() => nodes.every((node) => node.gateway.breakers.state(ROUTE) === 'closed'), 'every instance adopts the closed breaker', 1_000);
    assert.equal(await status(c.client.chat.completions.create({ model: 'calc', messages: HELLO })), 200);
    const closings = a.gateway.store.audit(100, { route: ROUTE, type: 'breaker_closed' });
    assert.equal(closings.length, 1, 'one closing, audited once, visible from A whoever probed');
  });

  test('a runtime block added on A is in B\u2019s provider.ignore within a second, and so is its removal', async () => {
    const [a, b] = nodes as [Instance, Instance];
    const res = await admin(a, 'POST', '/admin/blocklist', { route: 'chat-main@openrouter/Alpha', reason: 'incident 7' });
    assert.equal(res.status, 201);
    const { id } = (await res.json()) as { id: string };
    await until(() => b.gateway.blocklist.isBlocked('chat-main@openrouter/Alpha'), 'B holds the block', 1_000);
    await b.client.chat.completions.create({ model: 'chat', messages: HELLO });
    assert.deepEqual(fleet.stats().recent.at(-1)!.providerPrefs, { ignore: ['alpha'] });
    assert.ok(b.gateway.store.audit(10, { type: 'block_added' }).some((e) => e.detail.id === id), 'A\u2019s audit event is visible on B');

    assert.equal((await admin(a, 'DELETE', `/admin/blocklist/${id}`)).status, 200);
    await until(() => !b.gateway.blocklist.isBlocked('chat-main@openrouter/Alpha'), 'B drops the block', 1_000);
    await b.client.chat.completions.create({ model: 'chat', messages: HELLO });
    assert.equal(fleet.stats().recent.at(-1)!.providerPrefs ?? null, null);
  });

  test('a quarantine decided by a canary round on A takes the route out of service on B and C', async () => {
    const [a, b, c] = nodes as [Instance, Instance, Instance];
    const res = await admin(a, 'POST', '/admin/canary/run');
    assert.equal(res.status, 200);
    assert.equal(a.gateway.control.views().find((v) => v.id === 'chat-main@openrouter/Stray')?.state, 'quarantined');
    await until(() => b.gateway.blocklist.isBlocked('chat-main@openrouter/Stray') && c.gateway.blocklist.isBlocked('chat-main@openrouter/Stray'), 'B and C hold the quarantine', 1_000);
    await c.client.chat.completions.create({ model: 'chat', messages: HELLO });
    assert.deepEqual(fleet.stats().recent.at(-1)!.providerPrefs, { ignore: ['stray'] });
  });
});
