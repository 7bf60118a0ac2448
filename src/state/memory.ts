// The in-process Store: for one instance without persistence, and for tests of pure logic.
import type { BreakerSnapshot } from '../resilience/breaker.js';
import type { AuditEvent, LedgerEntry, Store } from './store.js';

export class MemoryStore implements Store {
  readonly kind = 'memory';
  #breakers = new Map<string, BreakerSnapshot>();
  #audit: AuditEvent[] = [];
  #ledger: LedgerEntry[] = [];

  constructor(private readonly keep = 10_000) {}

  getBreaker(route: string): BreakerSnapshot | undefined {
    return this.#breakers.get(route);
  }

  putBreaker(route: string, snapshot: BreakerSnapshot): void {
    this.#breakers.set(route, snapshot);
  }

  appendAudit(event: AuditEvent): void {
    push(this.#audit, event, this.keep);
  }

  audit(limit: number): AuditEvent[] {
    return this.#audit.slice(-limit).reverse();
  }

  appendLedger(entry: LedgerEntry): void {
    push(this.#ledger, entry, this.keep);
  }

  ledger(limit: number): LedgerEntry[] {
    return this.#ledger.slice(-limit).reverse();
  }

  async close(): Promise<void> {}
}

function push<T>(list: T[], item: T, keep: number): void {
  list.push(item);
  if (list.length > keep) list.splice(0, list.length - keep);
}
