export type { Store, AuditEvent, LedgerEntry, RuntimeBlock } from './store.js';
export { MemoryStore } from './memory.js';
export { SqliteStore, type SqliteStoreOptions, type StoreLog } from './sqlite.js';
export { StoreError, isStoreError, type StoreErrorCode } from './errors.js';
export { openStore, type StoreConfig, type StoreOptions } from './open.js';
