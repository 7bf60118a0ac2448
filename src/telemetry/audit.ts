// Every automatic decision is written down: the audit log (through the Store) and the log.
import type { AuditEvent, LedgerEntry, Store } from '../state/index.js';
import type { Logger } from './logger.js';

export class Audit {
  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  record(type: string, route: string | null, detail: Record<string, unknown>, level: 'info' | 'warn' | 'error' = 'info'): void {
    const event: AuditEvent = { at: this.now(), type, route, detail };
    this.store.appendAudit(event);
    this.log[level]({ audit: type, route, ...detail }, type);
  }

  /** The fallback ledger: one line per request that did not end on its first route as asked. */
  ledger(entry: Omit<LedgerEntry, 'at'>): void {
    this.store.appendLedger({ at: this.now(), ...entry });
  }
}
