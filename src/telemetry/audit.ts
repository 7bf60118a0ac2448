// Every automatic decision is written down: the audit log (through the Store) and the log.
import type { AuditEvent, LedgerEntry, Store } from '../state/index.js';
import type { Logger } from './logger.js';
import type { Notifier } from './notifier.js';

/** Automatic decisions an operator must hear about at once, besides the canary's own. */
const NOTIFIED = new Set(['config_fault', 'breaker_open']);

/**
 * Events that recur on every request while their cause lasts (an upstream refusing Warden's
 * key answers each attempt with a 401): written, logged and sent once per route per window,
 * the next one saying how many were held back. Written each time, 100 requests a second
 * filled the trimmed audit log with one fault in 17 minutes, pushing out every real decision,
 * and sent 100 webhooks a second. Each attempt is still counted in the metrics.
 */
const RECURRING = new Set(['config_fault']);
export const RECURRING_WINDOW_MS = 5 * 60_000;
/** Above this many routes remembered, lapsed windows are dropped (pinned endpoint names come from clients). */
const RECURRING_KEPT = 1_000;

export class Audit {
  #notifier: Notifier | null = null;
  /** Per recurring type and route: until when it is quiet, and how many were held back meanwhile. */
  readonly #quiet = new Map<string, { until: number; heldBack: number }>();

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
    const at = this.now();
    if (RECURRING.has(type)) {
      const heldBack = this.#heldBack(`${type} ${route ?? ''}`, at);
      if (heldBack === null) return;
      if (heldBack > 0) detail = { ...detail, heldBack, heldBackWindow: `${RECURRING_WINDOW_MS / 60_000}m` };
    }
    const event: AuditEvent = { at, type, route, detail };
    this.store.appendAudit(event);
    if (this.#notifier && NOTIFIED.has(type)) {
      this.#notifier.notify({ type, route, at: event.at, summary: `${type.replace('_', ' ')}${route ? ` on ${route}` : ''}`, detail });
    } else {
      this.log[level]({ audit: type, route, ...detail }, type);
    }
  }

  /** null while `key` is quiet (counted); else how many were held back since it last went out. */
  #heldBack(key: string, at: number): number | null {
    const quiet = this.#quiet.get(key);
    if (quiet && at < quiet.until) {
      quiet.heldBack++;
      return null;
    }
    if (this.#quiet.size >= RECURRING_KEPT) {
      for (const [k, q] of this.#quiet) if (q.until <= at) this.#quiet.delete(k);
    }
    this.#quiet.set(key, { until: at + RECURRING_WINDOW_MS, heldBack: 0 });
    return quiet?.heldBack ?? 0;
  }

  /** The fallback ledger: one line per request that did not end on its first route as asked. */
  ledger(entry: Omit<LedgerEntry, 'at'>): void {
    this.store.appendLedger({ at: this.now(), ...entry });
  }
}
