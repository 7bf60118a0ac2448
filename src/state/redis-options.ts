// How a Redis store is configured (its log is in store-log.ts, re-exported here).
import type { RedisStoreLog } from './store-log.js';
export { CONSOLE_LOG, type RedisStoreLog } from './store-log.js';

export interface RedisStoreOptions {
  /** `redis://[:password@]host:port[/db]`. Never logged: it may carry a password. */
  url: string;
  /** Put before every key and the channel, so several deployments can share one Redis. Default `warden:`. */
  prefix?: string;
  /** Audit events and ledger entries kept, each (the lists are trimmed to it). Default 10_000. */
  keep?: number;
  /** Default: the console. */
  log?: RedisStoreLog;
  /** How long `open` waits for Redis before it serves degraded, ms. Default 1000. */
  connectTimeoutMs?: number;
  /**
   * How long a command may go unanswered before it counts as failed and the store goes
   * degraded, ms. Default 2000. Without it a Redis that hangs (frozen, or cut off without a
   * reset) would hold every write, the shutdown and the store's health forever.
   */
  commandTimeoutMs?: number;
  /**
   * How long a probe-slot, lease or instance-list call may wait for its answer before the
   * cautious one is taken (no probe this time, no lease), ms. Default 250: the request path waits on it.
   */
  coordinationAnswerMs?: number;
  /** How often a link that is up PINGs Redis, ms, so a hang is noticed with no write going out. Default 5000. */
  pingMs?: number;
  /** Audit and ledger appends held while Redis is away; beyond this the oldest are dropped. Default 10_000. */
  maxBacklog?: number;
}
