// Everything Warden remembers goes through one Store. Reads are synchronous, from what the
// store holds locally, so the request path never waits on I/O; writes may be buffered by
// an implementation that persists or shares them.
import type { BreakerSnapshot } from '../resilience/breaker.js';

export interface AuditEvent {
  at: number;
  type: string;
  route: string | null;
  detail: Record<string, unknown>;
}

export interface LedgerEntry {
  at: number;
  requestId: string;
  role: string;
  /** The route tried first. */
  primaryRoute: string;
  /** Why the request left it: `transport:upstream_error`, `quality:wrong_language`, … */
  reason: string;
  /** The route that answered in the end, or null. */
  finalRoute: string | null;
  /** `fallback` (answered by another route), `degraded`, `default`, `unavailable`, `escalated`. */
  outcome: string;
  attempts: number;
  latencyMs: number;
}

export interface Store {
  readonly kind: string;
  getBreaker(route: string): BreakerSnapshot | undefined;
  putBreaker(route: string, snapshot: BreakerSnapshot): void;
  appendAudit(event: AuditEvent): void;
  /** Newest first. */
  audit(limit: number): AuditEvent[];
  appendLedger(entry: LedgerEntry): void;
  /** Newest first. */
  ledger(limit: number): LedgerEntry[];
  close(): Promise<void>;
}
