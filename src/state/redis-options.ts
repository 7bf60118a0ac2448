// How a Redis store is configured, and where it reports trouble.
import type { StoreLog } from './sqlite.js';

export interface RedisStoreLog extends StoreLog {
  info(obj: object, msg: string): void;
}

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
  /** Audit and ledger appends held while Redis is away; beyond this the oldest are dropped. Default 10_000. */
  maxBacklog?: number;
}

export const CONSOLE_LOG: RedisStoreLog = {
  info: (obj, msg) => console.info(msg, obj),
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};
