// Coordination through Redis (FINDINGS: "a purpose-built breaker over Redis … two Lua
// scripts"). The probe slot and leases are keys set with NX and an expiry, released or renewed
// only by the token that holds them, so a dead holder frees them by itself. Redis' own TIME is
// the clock for the instance list, so instances with skewed clocks still agree on who is alive.
// Every call answers within `answerWithinMs`. While the store is degraded (Redis away) the
// answer is the single-instance one: this instance probes, leads, and counts itself alone. A
// call that fails or is late on a live connection gets the cautious answer instead — no probe
// this time, no lease — since other instances may well be reaching Redis.
import type { Redis } from 'ioredis';
import type { Coordination } from './coordination.js';

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const HOLD = `local holder = redis.call('GET', KEYS[1])
if not holder then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0`;
const HEARTBEAT = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`;

interface Scripts {
  wardenRelease(key: string, token: string): Promise<number>;
  wardenHold(key: string, token: string, ttlMs: number): Promise<number>;
  wardenHeartbeat(key: string, member: string, ttlMs: number): Promise<number>;
}

export interface RedisCoordinationOptions {
  redis: Redis;
  prefix: string;
  /** This instance's id: the token of its leases and its name in the instance list. */
  instance: string;
  /** False while the store is degraded: no call is tried then. */
  up(): boolean;
  /** Counts a failed or late call (the store's error counter). */
  failed(): void;
  answerWithinMs?: number;
}

export class RedisCoordination implements Coordination {
  readonly shared = true;
  readonly #redis: Redis & Scripts;
  readonly #o: RedisCoordinationOptions;
  readonly #within: number;
  #instances = 1;
  #probeSeq = 0;

  constructor(options: RedisCoordinationOptions) {
    this.#o = options;
    this.#within = options.answerWithinMs ?? 250;
    const redis = options.redis;
    redis.defineCommand('wardenRelease', { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand('wardenHold', { numberOfKeys: 1, lua: HOLD });
    redis.defineCommand('wardenHeartbeat', { numberOfKeys: 1, lua: HEARTBEAT });
    this.#redis = redis as Redis & Scripts;
  }

  async acquireProbe(route: string, ttlMs: number): Promise<string | null> {
    const token = `${this.#o.instance}:${++this.#probeSeq}`;
    const set = await this.#ask(() => this.#redis.set(this.#key('probe', route), token, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX'), 'OK', null);
    return set === 'OK' ? token : null;
  }

  releaseProbe(route: string, token: string): void {
    void this.#ask(() => this.#redis.wardenRelease(this.#key('probe', route), token), 0, 0);
  }

  async holdLease(name: string, ttlMs: number): Promise<boolean> {
    return (await this.#ask(() => this.#redis.wardenHold(this.#key('lease', name), this.#o.instance, Math.max(1, Math.ceil(ttlMs))), 1, 0)) === 1;
  }

  async releaseLease(name: string): Promise<void> {
    await this.#ask(() => this.#redis.wardenRelease(this.#key('lease', name), this.#o.instance), 0, 0);
  }

  async heartbeat(ttlMs: number): Promise<number> {
    const count = await this.#ask(() => this.#redis.wardenHeartbeat(`${this.#o.prefix}instances`, this.#o.instance, Math.max(1, Math.ceil(ttlMs))), this.#instances, this.#instances);
    this.#instances = Math.max(1, Number(count) || 1);
    return this.#instances;
  }

  #key(kind: string, name: string): string {
    // The hash tag keeps a route's keys on one slot should the Redis be a cluster.
    return `${this.#o.prefix}${kind}:{${name}}`;
  }

  /** The call's answer; `alone` (the single-instance answer) while Redis is away; `cautious` when the call fails or is late. */
  async #ask<T, A, C>(call: () => Promise<T>, alone: A, cautious: C): Promise<T | A | C> {
    if (!this.#o.up()) return alone;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<C>((resolve) => {
      timer = setTimeout(() => {
        this.#o.failed();
        resolve(cautious);
      }, this.#within);
      timer.unref();
    });
    try {
      return await Promise.race([
        call().catch(() => {
          this.#o.failed();
          return cautious;
        }),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
