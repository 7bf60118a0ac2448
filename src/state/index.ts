export type { Store, AuditEvent, LedgerEntry, RuntimeBlock, StoreHealth, StoreChangeKind, StoreChangeListener } from './store.js';
export { MemoryStore } from './memory.js';
export { SqliteStore, type SqliteStoreOptions } from './sqlite.js';
export type { StoreLog } from './store-log.js';
export { RedisStore, type RedisStoreOptions, type RedisStoreLog } from './redis.js';
export type { ChangeKind } from './redis-wire.js';
export { StoreError, isStoreError, type StoreErrorCode } from './errors.js';
export { openStore, openStoreAsync, coordinationFor, type StoreConfig, type StoreOptions, type AsyncStoreOptions } from './open.js';
export { LocalCoordination, type Coordination } from './coordination.js';
