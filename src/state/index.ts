export type { Store, AuditEvent, LedgerEntry, RuntimeBlock } from './store.js';
export { MemoryStore } from './memory.js';
