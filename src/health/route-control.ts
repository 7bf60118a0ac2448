// What an operator (or the canary) can do to a route, and what a route's state is: the
// merged view of blocklist layers, manual overrides, quarantine and breaker. Every change
// is persisted through the Store and audited.
import { randomUUID } from 'node:crypto';
import type { Catalog, Route } from '../catalog/index.js';
import { parseRouteId } from '../catalog/index.js';
import type { CanaryRouteState } from '../canary/types.js';
import type { Clock } from '../clock/index.js';
import type { BreakerBoard } from '../resilience/index.js';
import type { RuntimeBlock, Store } from '../state/index.js';
import type { Audit } from '../telemetry/index.js';
import type { BlockEntry, Blocklist } from './blocklist.js';

export type RouteState = 'healthy' | 'quarantined' | 'blocked' | 'shed' | 'open' | 'half_open';

export interface RouteView {
  id: string;
  model: string;
  provider: string;
  endpoint: string | null;
  state: RouteState;
  /** Why, one line per layer holding it: `builtin: measured prefix contamination`, … */
  reasons: string[];
  /** When the state that holds it lapses (epoch ms), or null. */
  until: number | null;
  breaker: { state: string; retryAt: number | null; consecutiveFailures: number };
  canary: CanaryRouteState | null;
  restored: boolean;
}

export class RouteControlError extends Error {
  constructor(
    readonly code: 'unknown_route' | 'unknown_block' | 'invalid_ttl',
    message: string,
  ) {
    super(message);
    this.name = 'RouteControlError';
  }
}

export class RouteControl {
  /** Restore entries by id: the blocklist keeps restores by route, a deletion names the id. */
  readonly #restores = new Map<string, string>();

  constructor(
    private readonly catalog: Catalog,
    private readonly blocklist: Blocklist,
    private readonly board: BreakerBoard,
    private readonly store: Store,
    private readonly audit: Audit,
    private readonly clock: Clock,
  ) {}

  /** Loads what a restart must not lose: runtime blocks, sheds, restores and quarantines. */
  restoreFromStore(): void {
    const now = this.clock.now();
    this.expireBlocks();
    for (const block of this.store.blocks()) this.#apply(block);
    for (const [route, state] of this.store.canaryStates()) {
      if (state.quarantine && state.quarantine.until > now) this.setQuarantine(route, state.quarantine.until, state.quarantine.reasons);
    }
  }

  /**
   * Brings one runtime entry in line with the store after another instance added or removed
   * it (a shared store's change notice). Local only: the instance that made the change
   * audited it.
   */
  syncBlock(id: string): void {
    const block = this.store.blocks().find((b) => b.id === id);
    this.blocklist.remove(id);
    const restoredRoute = this.#restores.get(id);
    if (restoredRoute !== undefined && block?.kind !== 'restore') {
      this.#restores.delete(id);
      this.blocklist.unrestore(restoredRoute);
    }
    if (block) this.#apply(block);
  }

  /** Follows another instance's canary decision for a route: quarantined or released. */
  syncQuarantine(route: string): void {
    const quarantine = this.store.getCanaryState(route)?.quarantine;
    if (quarantine && quarantine.until > this.clock.now()) this.setQuarantine(route, quarantine.until, quarantine.reasons);
    else this.clearQuarantine(route);
  }

  routes(): Route[] {
    return this.catalog.routes();
  }

  view(route: Route): RouteView {
    const entries = this.blocklist.entriesFor(route.id);
    const breaker = this.board.snapshot(route.id);
    const state = stateOf(entries, this.board.state(route.id));
    const holding = entries.filter((e) => layerState(e) === state);
    const until = state === 'open' || state === 'half_open' ? (breaker?.retryAt ?? null) : holding.length > 0 && holding.every((e) => e.until !== null) ? Math.max(...holding.map((e) => e.until!)) : null;
    const reasons = entries.map((e) => `${e.layer}: ${e.reason}`);
    if (breaker && breaker.state !== 'closed') reasons.push(`breaker ${breaker.state}: ${breaker.consecutiveFailures} consecutive transport failures`);
    return {
      id: route.id,
      model: route.model,
      provider: route.provider,
      endpoint: route.endpoint,
      state,
      reasons,
      until,
      breaker: { state: this.board.state(route.id), retryAt: breaker?.retryAt ?? null, consecutiveFailures: breaker?.consecutiveFailures ?? 0 },
      canary: this.store.getCanaryState(route.id) ?? null,
      restored: this.blocklist.isRestored(route.id),
    };
  }

  views(): RouteView[] {
    return this.routes().map((r) => this.view(r));
  }

  /**
   * Routes of a model serving now: not blocked, quarantined or shed, and with a closed breaker
   * (an open or half-open one takes no traffic, so it cannot carry the model's load).
   */
  inService(model: string): Route[] {
    return this.catalog.get(model)?.routes.filter((r) => !this.blocklist.isBlocked(r.id) && this.board.state(r.id) === 'closed') ?? [];
  }

  addBlock(route: string, reason: string, ttlMs: number | null, by: string | null): RuntimeBlock {
    this.#known(route);
    if (ttlMs !== null && !(ttlMs > 0)) throw new RouteControlError('invalid_ttl', 'ttl must be a positive duration such as 30m or 2h');
    // Blocks pile up only here, so the store never holds more than the live ones and those lapsed since.
    this.expireBlocks();
    const now = this.clock.now();
    const block: RuntimeBlock = { id: `blk_${randomUUID().slice(0, 8)}`, route, kind: 'block', reason, createdAt: now, until: ttlMs === null ? null : now + ttlMs, by };
    this.store.putBlock(block);
    this.blocklist.add({ id: block.id, route, layer: 'runtime', reason, until: block.until });
    this.audit.record('block_added', route, { id: block.id, reason, until: block.until, by });
    return block;
  }

  removeBlock(id: string, by: string | null): RuntimeBlock {
    const block = this.store.blocks().find((b) => b.id === id && b.kind === 'block');
    if (!block) throw new RouteControlError('unknown_block', `no runtime blocklist entry "${id}"`);
    this.store.deleteBlock(id);
    this.blocklist.remove(id);
    this.audit.record('block_removed', block.route, { id, reason: block.reason, by });
    return block;
  }

  /** The runtime entries still in force (lapsed ones are dropped first). */
  runtimeBlocks(): RuntimeBlock[] {
    this.expireBlocks();
    return this.store.blocks();
  }

  /**
   * Deletes the entries whose ttl has run out from the store. The blocklist stops honouring
   * them on its own, but the store kept them: a lapsed block stayed in GET /admin/blocklist
   * and the dashboard, and every ttl block ever added kept its row until a restart.
   */
  expireBlocks(): void {
    const now = this.clock.now();
    for (const block of this.store.blocks()) {
      if (block.until === null || block.until > now) continue;
      this.store.deleteBlock(block.id);
      this.blocklist.remove(block.id);
      this.#restores.delete(block.id);
    }
  }

  /** Manual shed: out of service at once, in-flight requests drained; holds until released. */
  shed(route: string, reason: string, by: string | null): void {
    this.#known(route);
    this.#clearManual(route);
    const block: RuntimeBlock = { id: `shed_${randomUUID().slice(0, 8)}`, route, kind: 'shed', reason, createdAt: this.clock.now(), until: null, by };
    this.store.putBlock(block);
    this.blocklist.add({ id: block.id, route, layer: 'shed', reason, until: null });
    this.audit.record('shed_manual', route, { reason, by });
  }

  /** Manual restore: in service whatever the canary says, until released. */
  restore(route: string, reason: string, by: string | null): void {
    this.#known(route);
    this.#clearManual(route);
    const block: RuntimeBlock = { id: `restore_${randomUUID().slice(0, 8)}`, route, kind: 'restore', reason, createdAt: this.clock.now(), until: null, by };
    this.store.putBlock(block);
    this.#restores.set(block.id, route);
    this.blocklist.restore(route, null);
    this.audit.record('restore_manual', route, { reason, by });
  }

  /** Clears manual overrides; the canary's quarantine is ended by the canary's own release. */
  clearManual(route: string, by: string | null): void {
    this.#known(route);
    if (this.#clearManual(route)) this.audit.record('manual_cleared', route, { by });
  }

  setQuarantine(route: string, until: number, reasons: string[]): void {
    this.blocklist.add({ id: `quarantine:${route}`, route, layer: 'quarantine', reason: reasons.join('; ') || 'canary', until });
  }

  clearQuarantine(route: string): void {
    this.blocklist.removeLayer(route, 'quarantine');
  }

  #apply(block: RuntimeBlock): void {
    if (block.kind === 'restore') {
      this.#restores.set(block.id, block.route);
      this.blocklist.restore(block.route, block.until);
    } else {
      this.blocklist.add({ id: block.id, route: block.route, layer: block.kind === 'shed' ? 'shed' : 'runtime', reason: block.reason, until: block.until });
    }
  }

  #clearManual(route: string): boolean {
    let cleared = false;
    for (const block of this.store.blocks()) {
      if (block.route !== route || block.kind === 'block') continue;
      this.store.deleteBlock(block.id);
      this.#restores.delete(block.id);
      cleared = true;
    }
    if (this.blocklist.removeLayer(route, 'shed').length > 0) cleared = true;
    if (this.blocklist.isRestored(route)) cleared = true;
    this.blocklist.unrestore(route);
    return cleared;
  }

  #known(route: string): void {
    const parts = parseRouteId(route);
    const model = parts && this.catalog.get(parts.model);
    if (!parts || !model || model.upstream.providerName !== parts.provider) {
      throw new RouteControlError('unknown_route', `unknown route "${route}": expected <model>@<provider> or <model>@<provider>/<endpoint> of a configured model`);
    }
  }
}

const PRECEDENCE: RouteState[] = ['shed', 'blocked', 'quarantined'];

function layerState(entry: BlockEntry): RouteState {
  return entry.layer === 'shed' ? 'shed' : entry.layer === 'quarantine' ? 'quarantined' : 'blocked';
}

function stateOf(entries: BlockEntry[], breaker: string): RouteState {
  for (const state of PRECEDENCE) if (entries.some((e) => layerState(e) === state)) return state;
  if (breaker === 'open' || breaker === 'half_open') return breaker;
  return 'healthy';
}
