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

/** How a store is doing, for /readyz, /metrics and the log. */
export interface StoreHealth {
  /** True while the store serves from its local copy because its backend is unreachable or failing. */
  degraded: boolean;
  /** Failed operations since open; the store kept serving. */
  errors: number;
  /** Writes held locally until the backend takes them. */
  pending: number;
  /** While degraded: why, in the backend's own words (never a URL or a secret). */
  reason?: string;
}

export type StoreChangeKind = 'breakers' | 'canary' | 'blocks' | 'settings' | 'audit';
export type StoreChangeListener = (kind: StoreChangeKind, key: string) => void;

export interface Store {
  readonly kind: string;
  /**
   * True when other instances read and write the same state (Redis). A shared store carries
   * breaker transitions only: per-instance counters would overwrite each other's decisions.
   */
  readonly shared: boolean;
  health(): StoreHealth;
  /** Hears changes made by other instances (never this one's own); returns an unsubscribe. */
  onChange(listener: StoreChangeListener): () => void;

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

  /** Small named JSON documents (the runtime role overlay, for one): shared like the rest. */
  getSetting(key: string): unknown;
  putSetting(key: string, value: unknown): void;
  /** True when the key existed. */
  deleteSetting(key: string): boolean;

  close(): Promise<void>;
}
