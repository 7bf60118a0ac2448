export type { Store, AuditEvent, LedgerEntry } from './store.js';
export { MemoryStore } from './memory.js';
