// Picks the Store the config asks for.
import { StoreError } from './errors.js';
import { MemoryStore } from './memory.js';
import { RedisStore, type RedisStoreLog } from './redis.js';
import { SqliteStore, type SqliteStoreOptions } from './sqlite.js';
import type { Store } from './store.js';
import { LocalCoordination, type Coordination } from './coordination.js';

/** The `state:` section of the config, as validated there (the Redis URL a Secret: it may carry a password). */
export type StoreConfig = { memory: true } | { sqlite: string } | { redis: string | { reveal(): string } };

export type StoreOptions = Omit<SqliteStoreOptions, 'file'>;

/** Options for `openStoreAsync`: Redis also takes a key prefix and logs its recovery at info. */
export type AsyncStoreOptions = Omit<StoreOptions, 'log'> & { log?: RedisStoreLog; prefix?: string };

/** The stores that open without waiting; Redis needs `openStoreAsync`. */
export function openStore(config: StoreConfig, options: StoreOptions = {}): Store {
  if ('sqlite' in config) return new SqliteStore({ ...options, file: config.sqlite });
  if ('redis' in config) {
    // The URL is left out on purpose: it may carry a password.
    throw new StoreError('store_unsupported', 'the Redis store opens asynchronously: use `openStoreAsync` (as `openGateway` does)');
  }
  return new MemoryStore(options.keep);
}

/**
 * Any store the config names. Redis resolves once its snapshot is loaded, or after a short
 * connect timeout in degraded mode (it keeps trying in the background and never throws here).
 */
export async function openStoreAsync(config: StoreConfig, options: AsyncStoreOptions = {}): Promise<Store> {
  if ('redis' in config) {
    const { keep, log, prefix } = options;
    const url = typeof config.redis === 'string' ? config.redis : config.redis.reveal();
    return RedisStore.open({ url, ...(keep !== undefined && { keep }), ...(log && { log }), ...(prefix !== undefined && { prefix }) });
  }
  const { prefix: _prefix, ...rest } = options;
  return openStore(config, rest);
}

/** How instances sharing `store` agree on probes, leases and quotas: through Redis, or alone. */
export function coordinationFor(store: Store): Coordination {
  return store instanceof RedisStore ? store.coordination : new LocalCoordination();
}
