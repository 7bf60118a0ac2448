// Gateway instances as real `warden start` processes on one Redis: the canary lease moves to
// another instance when its holder is killed, and stopping Redis under load fails no client
// request; the instances say they are degraded, and converge once Redis is back, with every
// audit event written meanwhile.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { parseScenario, startFleet, type Fleet } from '../../src/sim/index.js';
import { startProcess, type Process } from '../helpers/cluster.js';
import { redisMissing, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/until.js';

const missing = redisMissing();
if (missing) console.log(`# skipped: ${missing}`);

const TOKEN = 'proc-admin';
const MODEL = 'deepseek/deepseek-chat';
const SCENARIO = { seed: 5, providers: { Alpha: { models: [MODEL] }, Beta: { models: [MODEL] }, Gamma: { models: [MODEL] }, small: { models: ['gpt-4o-mini'] } } };
const config = (fleet: Fleet, redis: RedisServer, canary: string) => `
server: { adminToken: "${TOKEN}" }
state: { redis: "${redis.url}" }
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
  direct:     { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}" }
models:
  chat-main:  { provider: openrouter, model: ${MODEL} }
  chat-small: { provider: direct, model: gpt-4o-mini }
roles:
  chat: { tier: degrade, models: [chat-main, chat-small] }
${canary}
`;

interface Ready {
  ready: boolean;
  degraded: boolean;
  canaryLeader: boolean | null;
}
const readyz = async (p: Process): Promise<Ready> => (await fetch(`${p.url}/readyz`)).json() as Promise<Ready>;
const admin = async (p: Process, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${p.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const auditOf = async (p: Process, query = '') => (await admin(p, 'GET', `/admin/audit?limit=1000${query}`)).body.events as Array<{ at: number; type: string; route: string | null; detail: Record<string, unknown> }>;

describe('instances as processes', { skip: missing ?? false }, () => {
  let fleet: Fleet;
  before(async () => {
    fleet = await startFleet({ scenario: parseScenario(SCENARIO), port: 0 });
  });
  after(() => fleet?.close());

  test('kill the canary leader: another instance takes the lease and runs the next round', async () => {
    const redis = await startRedis();
    const procs: Process[] = [];
    try {
      for (let i = 0; i < 3; i++) procs.push(await startProcess(config(fleet, redis, 'canary: { watch: [chat-main], interval: 300ms, languages: [en] }')));
      const leaders = async () => (await Promise.all(procs.map(async (p) => (p.child.exitCode === null && p.child.signalCode === null ? (await readyz(p)).canaryLeader : false)))).map((l, i) => (l ? i : -1)).filter((i) => i >= 0);
      const [first] = await until(async () => ((await leaders()).length === 1 ? await leaders() : null), 'one instance holds the canary lease');
      const survivor = procs[(first! + 1) % 3]!;
      await until(async () => (await auditOf(survivor, '&type=canary_round')).length > 0, 'the leader runs a round');
      const roundsBefore = (await auditOf(survivor, '&type=canary_round')).length;
      // Exclusivity, not continuity: on a loaded machine a renewal can come late and the lease
      // lapse for a moment (no leader until one takes it again), which is not what this checks.
      assert.ok((await leaders()).length <= 1, 'never two leaders');

      await procs[first!]!.kill('SIGKILL');
      const killedAt = Date.now();
      const [next] = await until(async () => {
        const now = (await leaders()).filter((i) => i !== first);
        return now.length === 1 ? now : null;
      }, 'another instance takes the lease');
      assert.notEqual(next, first);
      const rounds = await until(async () => {
        const events = await auditOf(survivor, '&type=canary_round');
        return events.length > roundsBefore && events[0]!.at >= killedAt ? events : null;
      }, 'the new leader runs the next round');
      assert.ok(rounds.length > roundsBefore);
      await until(() => procs[next!]!.lines.some((l) => l.includes('canary lease taken')), 'the new leader says so in its log');
    } finally {
      for (const p of procs) await p.kill();
      await redis.close();
    }
  });

  test('SIGTERM while Redis hangs: requests are served meanwhile, and the process exits 0 within the command timeout', async () => {
    const redis = await startRedis();
    const proc = await startProcess(config(fleet, redis, ''));
    try {
      redis.pause();
      const client = new OpenAI({ baseURL: `${proc.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 20_000 });
      const answer = await client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Hello!' }] });
      assert.ok(answer.choices[0]?.message.content);
      // A write the frozen Redis will never answer, and the shutdown right behind it.
      assert.equal((await admin(proc, 'POST', '/admin/blocklist', { route: 'chat-main@openrouter/Alpha', reason: 'written while Redis hangs' })).status, 201);
      proc.child.kill('SIGTERM');
      const exit = await until(() => (proc.child.exitCode === null && proc.child.signalCode === null ? null : { code: proc.child.exitCode, signal: proc.child.signalCode }), 'the process to exit', 15_000);
      assert.deepEqual(exit, { code: 0, signal: null }, proc.lines.join('\n'));
    } finally {
      redis.resume();
      await proc.kill();
      await redis.close();
    }
  });

  test('stop Redis under load: no client request fails, both say degraded, then converge with every audit event', async () => {
    const redis = await startRedis({ persist: true });
    const [a, b] = [await startProcess(config(fleet, redis, '')), await startProcess(config(fleet, redis, ''))] as [Process, Process];
    const clients = [a, b].map((p) => new OpenAI({ baseURL: `${p.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 20_000 }));
    let running = true;
    let sent = 0;
    const failures: unknown[] = [];
    const worker = async (client: OpenAI, stream: boolean) => {
      while (running) {
        sent++;
        try {
          if (stream) {
            const s = await client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Hello!' }], stream: true });
            let text = '';
            for await (const chunk of s) text += chunk.choices[0]?.delta?.content ?? '';
            if (text.length === 0) failures.push(new Error('empty stream'));
          } else {
            const r = await client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Hello!' }] });
            if (!r.choices[0]?.message.content) failures.push(new Error('empty answer'));
          }
        } catch (e) {
          failures.push(e);
        }
      }
    };
    const load = clients.flatMap((c) => [worker(c, false), worker(c, true)]);
    try {
      const sentBefore = await until(() => (sent > 20 ? sent : 0), 'load is running');
      const before = await admin(a, 'POST', '/admin/blocklist', { route: 'chat-main@openrouter/Alpha', reason: 'before the outage' });
      assert.equal(before.status, 201);

      await redis.stop();
      await until(async () => (await readyz(a)).degraded && (await readyz(b)).degraded, 'both instances report degraded');
      const ready = await fetch(`${a.url}/readyz`);
      assert.equal(ready.status, 200, 'degraded is still ready: it serves from its local copy');
      const metrics = await (await fetch(`${a.url}/metrics`)).text();
      assert.match(metrics, /warden_state_degraded\{store="redis"\} 1/);
      // Changes made during the outage, one on each instance.
      const during = await admin(a, 'POST', '/admin/blocklist', { route: 'chat-main@openrouter/Beta', reason: 'during the outage', ttl: '1h' });
      assert.equal(during.status, 201);
      assert.equal((await admin(b, 'POST', '/admin/routes/chat-small@direct/shed', { reason: 'shed during the outage' })).status, 200);
      await until(() => sent > sentBefore + 40, 'requests keep flowing while Redis is down');

      await redis.start();
      await until(async () => !(await readyz(a)).degraded && !(await readyz(b)).degraded, 'both recover');
      // Converged: each sees the other's outage-time change, and every audit event is on both.
      await until(async () => (await admin(b, 'GET', '/admin/blocklist')).body.entries.some((e: { id: string }) => e.id === during.body.id), 'B has A\u2019s block');
      await until(async () => (await admin(a, 'GET', '/admin/routes')).body.routes.find((r: { id: string }) => r.id === 'chat-small@direct')?.state === 'shed', 'A has B\u2019s shed');
      const want = ['block_added:chat-main@openrouter/Alpha', 'block_added:chat-main@openrouter/Beta', 'shed_manual:chat-small@direct'];
      for (const [name, p] of [['A', a], ['B', b]] as const) {
        const seen = await until(async () => {
          const events = (await auditOf(p)).map((e) => `${e.type}:${e.route}`);
          return want.every((w) => events.includes(w)) ? events : null;
        }, 'the audit events of both instances, before and during the outage');
        for (const w of want) assert.equal(seen.filter((e) => e === w).length, 1, `${w} once on ${name}, not replayed twice: ${JSON.stringify(await auditOf(p))}`);
      }
      await until(() => a.lines.some((l) => l.includes('Redis store degraded')) && a.lines.some((l) => l.includes('Redis store recovered')), 'the log says so');
    } finally {
      running = false;
      await Promise.all(load);
      await a.kill();
      await b.kill();
      await redis.close();
    }
    assert.deepEqual(failures.map(String), [], `no failed client request of ${sent}`);
  });
});
