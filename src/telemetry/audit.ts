// Every automatic decision is written down: the audit log (through the Store) and the log.
import type { AuditEvent, LedgerEntry, Store } from '../state/index.js';
import type { Logger } from './logger.js';
import type { Notifier } from './notifier.js';

/** Automatic decisions an operator must hear about at once, besides the canary's own. */
const NOTIFIED = new Set(['config_fault', 'breaker_open']);

export class Audit {
  #notifier: Notifier | null = null;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  /** Key events are also sent out (set once the notifier exists). */
  notifyWith(notifier: Notifier): void {
    this.#notifier = notifier;
  }

  record(type: string, route: string | null, detail: Record<string, unknown>, level: 'info' | 'warn' | 'error' = 'info'): void {
    const event: AuditEvent = { at: this.now(), type, route, detail };
    this.store.appendAudit(event);
    if (this.#notifier && NOTIFIED.has(type)) {
      this.#notifier.notify({ type, route, at: event.at, summary: `${type.replace('_', ' ')}${route ? ` on ${route}` : ''}`, detail });
    } else {
      this.log[level]({ audit: type, route, ...detail }, type);
    }
  }

  /** The fallback ledger: one line per request that did not end on its first route as asked. */
  ledger(entry: Omit<LedgerEntry, 'at'>): void {
    this.store.appendLedger({ at: this.now(), ...entry });
  }
}
