import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { RedisStore, openStoreAsync, type ChangeKind, type RedisStoreOptions } from '../../src/state/index.js';
import { APPEND_ONCE, type AppendOnce } from '../../src/state/redis-wire.js';
import { recorder } from '../helpers/log-recorder.js';
import { until } from '../helpers/until.js';
import { redisMissing, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { OPEN_BREAKER, block, event, storeContract } from './store.contract.js';

const missing = redisMissing();
if (missing) console.log(`# skipping the Redis store tests: ${missing}`);

let server: RedisServer | undefined;
let n = 0;
const prefix = (): string => `test${process.pid}-${++n}:`;
const options = (over: Partial<RedisStoreOptions> = {}): RedisStoreOptions => ({ url: server!.url, prefix: prefix(), log: recorder(), ...over });

/** Resolves with the first change a store hears that matches; `ms` only guards against a hang (timings are for the bench, not tests). */
function nextChange(store: RedisStore, match: (kind: ChangeKind, key: string) => boolean, ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching change within ${ms} ms`));
    }, ms);
    const off = store.onChange((kind, key) => {
      if (!match(kind, key)) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

/** Polls a condition the store exposes without an event (degraded flag), bounded. */
describe('RedisStore', { skip: missing ?? false }, () => {
  before(async () => {
    server = await startRedis();
  });
  after(async () => {
    await server?.stop();
  });

  storeContract('redis', {
    make: () => new RedisStore(options()),
    reopen: async (store) => {
      await store.close();
      return RedisStore.open({ url: server!.url, prefix: store.prefix, log: recorder() });
    },
  });

  test('open loads a snapshot and uses the documented keys', async () => {
    const p = prefix();
    const a = await RedisStore.open({ url: server!.url, prefix: p, log: recorder() });
    assert.equal(a.degraded, false);
    a.putBreaker('r', OPEN_BREAKER);
    a.putBlock(block('b1'));
    a.appendAudit(event(1, 'x', 'r'));
    await a.close();
    const raw = new Redis(server!.url);
    try {
      assert.deepEqual(JSON.parse((await raw.hget(`${p}breakers`, 'r'))!).v, OPEN_BREAKER, 'fields hold {o: first-put order, v: value}');
      assert.equal(await raw.hlen(`${p}blocks`), 1);
      assert.equal(await raw.llen(`${p}audit`), 1);
    } finally {
      raw.disconnect();
    }
  });

  test('openStoreAsync opens Redis for `state: { redis: url }`', async () => {
    const store = await openStoreAsync({ redis: server!.url }, { prefix: prefix(), log: recorder() });
    assert.ok(store instanceof RedisStore);
    assert.equal(store.kind, 'redis');
    await store.close();
  });

  test('a block put on one instance reaches another within a second, and deletes too', async () => {
    const p = prefix();
    const a = await RedisStore.open({ url: server!.url, prefix: p, log: recorder() });
    const b = await RedisStore.open({ url: server!.url, prefix: p, log: recorder() });
    const heardOwn: string[] = [];
    a.onChange((kind, key) => heardOwn.push(`${kind}:${key}`));
    try {
      let seen = nextChange(b, (kind, key) => kind === 'blocks' && key === 'b1');
      a.putBlock(block('b1'));
      await seen;
      assert.deepEqual(b.blocks(), [block('b1')]);

      seen = nextChange(b, (kind) => kind === 'audit');
      a.appendAudit(event(7, 'breaker_open', 'r'));
      await seen;
      assert.deepEqual(b.audit(10), [event(7, 'breaker_open', 'r')]);

      seen = nextChange(b, (kind, key) => kind === 'blocks' && key === 'b1');
      assert.equal(a.deleteBlock('b1'), true);
      await seen;
      assert.deepEqual(b.blocks(), []);
      assert.deepEqual(heardOwn, [], 'an instance does not hear its own writes');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('an outage degrades without throwing; a restart replays the held writes in order', async () => {
    const p = prefix();
    const log = recorder();
    const a = await RedisStore.open({ url: server!.url, prefix: p, log });
    const b = await RedisStore.open({ url: server!.url, prefix: p, log: recorder() });
    try {
      a.appendAudit(event(1, 'before', null));
      await server!.stop();
      await until(() => a.degraded, 'degraded');
      for (let i = 2; i <= 50; i++) a.appendAudit(event(i, 'during', null));
      a.putBlock(block('held'));
      assert.equal(a.getBreaker('x'), undefined);
      assert.equal(a.audit(100).length, 50, 'reads keep serving from the local copy');
      assert.equal(log.lines.filter((l) => l.level === 'warn').length, 1, 'one warning per outage');
      await server!.start(); // empty: the outage also lost Redis' memory
      await until(() => !a.degraded && a.backlog.pending === 0, 'recovery');
      assert.equal(log.lines.filter((l) => l.level === 'info').length, 1, 'one info on recovery');
      await until(() => b.audit(100).some((e) => e.at === 50) && b.blocks().length === 1, 'the other instance to see the held writes');

      const fresh = await RedisStore.open({ url: server!.url, prefix: p, log: recorder() });
      try {
        const ats = fresh.audit(100).map((e) => e.at);
        // Event 1 was written just before the outage: lost with Redis' memory, or (when its reply
        // was lost with the connection) replayed from the backlog — either way at most once.
        assert.deepEqual(ats.filter((at) => at !== 1), Array.from({ length: 49 }, (_, i) => 50 - i), 'every held event arrived, newest first');
        assert.ok(ats.filter((at) => at === 1).length <= 1);
        assert.deepEqual(fresh.blocks(), [block('held')]);
      } finally {
        await fresh.close();
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('a Redis that comes back empty gets the instances\' state back instead of erasing it', async () => {
    const p = prefix();
    const a = await RedisStore.open({ url: server!.url, prefix: p, log: recorder() });
    const log = recorder();
    const b = await RedisStore.open({ url: server!.url, prefix: p, log });
    try {
      const seen = nextChange(b, (kind, key) => kind === 'breakers' && key === 'r');
      a.putBlock(block('kept'));
      a.putBreaker('r', OPEN_BREAKER);
      await seen;
      assert.deepEqual(b.blocks(), [block('kept')], 'b has both before the outage');
      await server!.stop();
      await until(() => a.degraded && b.degraded, 'degraded');
      await server!.start(); // no persistence: Redis is empty
      await until(() => !a.degraded && !b.degraded && log.lines.some((l) => l.level === 'warn' && /without Warden's state/.test(l.msg)), 'both instances notice and write their copy back');
      assert.deepEqual(a.blocks(), [block('kept')], 'the reload did not erase the local copy');
      assert.deepEqual(b.blocks(), [block('kept')]);
      assert.deepEqual(b.getBreaker('r'), OPEN_BREAKER);
      const raw = new Redis(server!.url);
      try {
        const breaker = await until(async () => ((await raw.hlen(`${p}blocks`)) === 1 ? raw.hget(`${p}breakers`, 'r') : null), 'Redis holds the state again');
        assert.deepEqual(JSON.parse(breaker).v, OPEN_BREAKER);
      } finally {
        raw.disconnect();
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('an append replayed after a lost reply lands once', async () => {
    const p = prefix();
    const raw = new Redis(server!.url);
    raw.defineCommand('wardenAppend', { numberOfKeys: 2, lua: APPEND_ONCE });
    try {
      const append = (id: string, json: string) => (raw as unknown as AppendOnce).wardenAppend(`${p}audit`, `${p}audit:ids`, json, id, 2, '', '');
      assert.equal(await append('i:1', '"one"'), 1);
      assert.equal(await append('i:1', '"one"'), 0, 'the same id again is a no-op');
      assert.equal(await append('i:2', '"two"'), 1);
      assert.equal(await append('i:3', '"three"'), 1);
      assert.deepEqual(await raw.lrange(`${p}audit`, 0, -1), ['"three"', '"two"'], 'trimmed to keep, newest first');
      assert.equal(await raw.zcard(`${p}audit:ids`), 2, 'ids kept for the newest `keep` appends only');
    } finally {
      raw.disconnect();
    }
  });

  test('breaker and canary puts reach another instance', async () => {
    const p = prefix();
    const a = await RedisStore.open({ url: server!.url, prefix: p, log: recorder() });
    const b = await RedisStore.open({ url: server!.url, prefix: p, log: recorder() });
    try {
      const seen = nextChange(b, (kind, key) => kind === 'breakers' && key === 'r');
      a.putBreaker('r', OPEN_BREAKER);
      await seen;
      assert.deepEqual(b.getBreaker('r'), OPEN_BREAKER);
      const half = { ...OPEN_BREAKER, state: 'half_open' as const };
      const again = nextChange(b, (kind, key) => kind === 'breakers' && key === 'r');
      a.putBreaker('r', half);
      await again;
      assert.equal(b.getBreaker('r')?.state, 'half_open');
      assert.equal(b.errors, 0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('unreachable at start: open resolves degraded after the timeout and catches up later', async () => {
    const log = recorder();
    const started = Date.now();
    const store = await RedisStore.open({ url: 'redis://127.0.0.1:1', prefix: prefix(), log, connectTimeoutMs: 300 });
    try {
      assert.ok(Date.now() - started < 2_000);
      assert.equal(store.degraded, true);
      store.putBreaker('r', OPEN_BREAKER);
      assert.deepEqual(store.getBreaker('r'), OPEN_BREAKER);
      assert.equal(store.backlog.pending, 1);
      assert.equal(log.lines.filter((l) => l.level === 'warn').length, 1);
    } finally {
      await store.close();
    }
  });
});
