// The in-process Store: for one instance without persistence, and for tests of pure logic.
import type { CanaryRouteState } from '../canary/types.js';
import type { BreakerSnapshot } from '../resilience/breaker.js';
import type { AuditEvent, LedgerEntry, RuntimeBlock, Store, StoreHealth } from './store.js';

export class MemoryStore implements Store {
  readonly kind: string = 'memory';
  readonly shared = false;
  #breakers = new Map<string, BreakerSnapshot>();
  #canary = new Map<string, CanaryRouteState>();
  #blocks = new Map<string, RuntimeBlock>();
  #settings = new Map<string, unknown>();
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

  audit(limit: number, filter: { route?: string; type?: string; since?: number } = {}): AuditEvent[] {
    const out: AuditEvent[] = [];
    for (let i = this.#audit.length - 1; i >= 0 && out.length < limit; i--) {
      const e = this.#audit[i]!;
      if (filter.route !== undefined && e.route !== filter.route) continue;
      if (filter.type !== undefined && e.type !== filter.type) continue;
      if (filter.since !== undefined && e.at < filter.since) continue;
      out.push(e);
    }
    return out;
  }

  appendLedger(entry: LedgerEntry): void {
    push(this.#ledger, entry, this.keep);
  }

  ledger(limit: number): LedgerEntry[] {
    // slice(-0) would be the whole list.
    return limit > 0 ? this.#ledger.slice(-limit).reverse() : [];
  }

  getCanaryState(route: string): CanaryRouteState | undefined {
    return this.#canary.get(route);
  }

  putCanaryState(route: string, state: CanaryRouteState): void {
    this.#canary.set(route, state);
  }

  canaryStates(): Map<string, CanaryRouteState> {
    return new Map(this.#canary);
  }

  putBlock(block: RuntimeBlock): void {
    this.#blocks.set(block.id, block);
  }

  deleteBlock(id: string): boolean {
    return this.#blocks.delete(id);
  }

  blocks(): RuntimeBlock[] {
    return [...this.#blocks.values()];
  }

  getSetting(key: string): unknown {
    return this.#settings.get(key);
  }

  putSetting(key: string, value: unknown): void {
    this.#settings.set(key, value);
  }

  deleteSetting(key: string): boolean {
    return this.#settings.delete(key);
  }

  health(): StoreHealth {
    return { degraded: false, errors: 0, pending: 0 };
  }

  /** Nothing else writes to a memory store. */
  onChange(): () => void {
    return () => {};
  }

  async close(): Promise<void> {}
}

function push<T>(list: T[], item: T, keep: number): void {
  list.push(item);
  if (list.length > keep) list.splice(0, list.length - keep);
}
