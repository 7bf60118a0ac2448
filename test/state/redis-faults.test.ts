// The Redis store against a Redis that misbehaves without going away: one that hangs on a live
// connection (frozen with SIGSTOP: nothing answers, nothing closes), one that answers but
// refuses (an ACL without a command Warden uses, a wrong password). The store must go
// degraded, keep serving, say so once, close in bounded time, and catch up when Redis answers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { RedisStore } from '../../src/state/index.js';
import { startHarness } from '../helpers/harness.js';
import { recorder } from '../helpers/log-recorder.js';
import { redisMissing, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/until.js';
import { OPEN_BREAKER, block } from './store.contract.js';

const missing = redisMissing();
if (missing) console.log(`# skipping the Redis fault tests: ${missing}`);

let n = 0;
const prefix = (): string => `faults${process.pid}-${++n}:`;

describe('RedisStore with a Redis that hangs or refuses', { skip: missing ?? false }, () => {
  let server: RedisServer;
  before(async () => {
    server = await startRedis();
  });
  after(async () => {
    server?.resume();
    await server?.close();
  });

  test('a Redis that hangs: writes go degraded and are held, one warning, recovery once it answers', async () => {
    const log = recorder();
    const p = prefix();
    const a = await RedisStore.open({ url: server.url, prefix: p, log, commandTimeoutMs: 200 });
    const b = await RedisStore.open({ url: server.url, prefix: p, log: recorder() });
    try {
      server.pause();
      a.putBreaker('r', OPEN_BREAKER);
      await until(() => a.degraded, 'the store says it is degraded while Redis does not answer');
      a.putBlock(block('held'));
      assert.deepEqual(a.getBreaker('r'), OPEN_BREAKER, 'reads keep serving from the local copy');
      assert.equal(await a.coordination.acquireProbe('r', 1_000) !== null, true, 'degraded coordination answers alone: the probe is this instance\'s');
      // Several retries go by while Redis is still frozen: the log must not flap.
      const errors = a.errors;
      await until(() => a.errors >= errors + 2, 'retries while Redis is frozen');
      assert.deepEqual(log.lines.map((l) => `${l.level}:${l.obj.reason ?? ''}`), ['warn:Command timed out'], 'one warning, naming the timeout');
      server.resume();
      await until(() => !a.degraded && a.backlog.pending === 0, 'recovery once Redis answers');
      await until(() => b.blocks().length === 1 && b.getBreaker('r')?.state === 'open', 'the held writes reach the other instance');
      assert.deepEqual(log.lines.map((l) => l.level), ['warn', 'info'], 'one warning, one recovery');
    } finally {
      server.resume();
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('a Redis that refuses writes (an ACL without PUBLISH): one warning for the whole refusal, recovery when allowed', async () => {
    const admin = new Redis(server.url);
    const user = `noperm${++n}`;
    await admin.call('ACL', 'SETUSER', user, 'on', '>pw', '~*', '&*', '+@all', '-publish');
    const log = recorder();
    const store = await RedisStore.open({ url: `redis://${user}:pw@127.0.0.1:${server.port}`, prefix: prefix(), log });
    try {
      store.putBlock(block('refused'));
      await until(() => store.degraded, 'degraded once Redis refuses the write');
      const errors = store.errors;
      await until(() => store.errors >= errors + 2, 'retries that Redis refuses again');
      assert.deepEqual(log.lines.map((l) => l.level), ['warn'], `one warning, no recovery while refused: ${JSON.stringify(log.lines)}`);
      assert.match(String(log.lines[0]!.obj.reason), /NOPERM/);
      await admin.call('ACL', 'SETUSER', user, '+publish');
      await until(() => !store.degraded && store.backlog.pending === 0, 'recovery once the write is allowed');
      assert.deepEqual(log.lines.map((l) => l.level), ['warn', 'info']);
    } finally {
      await store.close();
      await admin.call('ACL', 'DELUSER', user);
      admin.disconnect();
    }
  });

  test('a wrong password: degraded at start, requests served, the log and /readyz name the refusal and never the password', async () => {
    const user = `guarded${++n}`;
    const admin = new Redis(server.url);
    await admin.call('ACL', 'SETUSER', user, 'on', '>right-pw', '~*', '&*', '+@all');
    const log = recorder();
    const store = await RedisStore.open({ url: `redis://${user}:wrong-pw-s3cret@127.0.0.1:${server.port}`, prefix: prefix(), log, connectTimeoutMs: 300 });
    const h = await startHarness({ store });
    try {
      const answer = await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Hello!' }] });
      assert.ok(answer.choices[0]?.message.content, 'requests are served from the local copy');
      const ready = await fetch(`${h.url}/readyz`);
      assert.equal(ready.status, 200);
      const body = (await ready.json()) as { degraded: boolean; checks: Array<{ name: string; detail: string }> };
      assert.equal(body.degraded, true);
      assert.match(body.checks.find((c) => c.name === 'state:redis')!.detail, /^degraded \(.*WRONGPASS.*\): serving from the local copy/);
      assert.equal(log.lines.length, 1, `one line for the outage: ${JSON.stringify(log.lines)}`);
      assert.match(String(log.lines[0]!.obj.reason), /WRONGPASS/, 'the warning says why, not just \'connection closed\'');
      assert.doesNotMatch(JSON.stringify([log.lines, body]), /wrong-pw-s3cret/);
    } finally {
      await h.close();
      await admin.call('ACL', 'DELUSER', user);
      admin.disconnect();
    }
  });

  test('a database the Redis does not have (/99): degraded, saying so, and nothing written to database 0', async () => {
    const log = recorder();
    const p = prefix();
    const store = await RedisStore.open({ url: `${server.url}/99`, prefix: p, log, connectTimeoutMs: 300 });
    const raw = new Redis(server.url);
    try {
      store.putBreaker('r', OPEN_BREAKER);
      await until(() => store.degraded && log.lines.length > 0, 'degraded once the SELECT is refused');
      assert.match(String(store.health().reason), /DB index is out of range/);
      assert.match(String(log.lines[0]!.obj.reason), /DB index is out of range/);
      const errors = store.errors;
      await until(() => store.errors >= errors + 2, 'retries refused again');
      assert.equal(log.lines.length, 1, 'said once');
      assert.deepEqual(await raw.keys(`${p}*`), [], 'no key landed in database 0');
    } finally {
      await store.close();
      raw.disconnect();
    }
  });

  test('an idle store notices a Redis that hangs (no write needed) and comes back when it answers', async () => {
    const log = recorder();
    const store = await RedisStore.open({ url: server.url, prefix: prefix(), log, commandTimeoutMs: 200, pingMs: 50 });
    try {
      server.pause();
      await until(() => store.degraded, 'degraded without any write going out');
      assert.equal(store.health().reason, 'Command timed out');
      assert.equal(await store.coordination.holdLease('canary', 1_000), true, 'coordination answers alone, as documented for an outage');
      server.resume();
      await until(() => !store.degraded, 'recovery');
      assert.deepEqual(log.lines.map((l) => l.level), ['warn', 'info']);
    } finally {
      server.resume();
      await store.close();
    }
  });

  test('close returns while Redis hangs', async () => {
    const store = await RedisStore.open({ url: server.url, prefix: prefix(), log: recorder(), commandTimeoutMs: 200 });
    let closed = false;
    try {
      server.pause();
      store.putBreaker('r', OPEN_BREAKER);
      void store.close().then(() => (closed = true));
      await until(() => closed, 'close to return with Redis frozen');
      assert.equal(store.errors, 1, 'the write that timed out during close was not sent again into the same hang');
    } finally {
      server.resume();
      await store.close();
    }
  });
});
