// Everything Warden remembers goes through one Store. Reads are synchronous, from what the
// store holds locally, so the request path never waits on I/O; writes may be buffered by
// an implementation that persists or shares them.
import type { CanaryRouteState } from '../canary/types.js';
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

/** A runtime blocklist entry (layer 2) or a manual override, as the admin API writes it. */
export interface RuntimeBlock {
  id: string;
  route: string;
  /** `block`: an incident entry; `shed`: manual shed; `restore`: manual restore (in service whatever the canary says). */
  kind: 'block' | 'shed' | 'restore';
  reason: string;
  createdAt: number;
  /** Epoch ms when it lapses, or null for no end. */
  until: number | null;
  /** Who asked (the admin token's name), when known. */
  by: string | null;
}

export interface Store {
  readonly kind: string;
  getBreaker(route: string): BreakerSnapshot | undefined;
  putBreaker(route: string, snapshot: BreakerSnapshot): void;

  appendAudit(event: AuditEvent): void;
  /** Newest first; filters are optional. */
  audit(limit: number, filter?: { route?: string; type?: string; since?: number }): AuditEvent[];

  appendLedger(entry: LedgerEntry): void;
  /** Newest first. */
  ledger(limit: number): LedgerEntry[];

  getCanaryState(route: string): CanaryRouteState | undefined;
  putCanaryState(route: string, state: CanaryRouteState): void;
  /** Every route with canary state, for the admin view and restarts. */
  canaryStates(): Map<string, CanaryRouteState>;

  putBlock(block: RuntimeBlock): void;
  /** True when an entry with that id existed. */
  deleteBlock(id: string): boolean;
  blocks(): RuntimeBlock[];

  close(): Promise<void>;
}
