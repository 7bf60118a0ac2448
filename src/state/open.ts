// Picks the Store the config asks for.
import { StoreError } from './errors.js';
import { MemoryStore } from './memory.js';
import { SqliteStore, type SqliteStoreOptions } from './sqlite.js';
import type { Store } from './store.js';

/** The `state:` section of the config, as validated there. */
export type StoreConfig = { memory: true } | { sqlite: string } | { redis: string };

export type StoreOptions = Omit<SqliteStoreOptions, 'file'>;

export function openStore(config: StoreConfig, options: StoreOptions = {}): Store {
  if ('sqlite' in config) return new SqliteStore({ ...options, file: config.sqlite });
  if ('redis' in config) {
    // The URL is left out on purpose: it may carry a password.
    throw new StoreError('store_unsupported', 'the Redis store arrives in a later issue; use `state: { sqlite: <file> }` for now');
  }
  return new MemoryStore(options.keep);
}
