// Is a route usable now? The blocklist layers and the route's breaker together answer it,
// for the planner of each request and for OpenRouter's provider.ignore.
import type { CatalogModel } from '../catalog/index.js';
import type { Clock } from '../clock/index.js';
import type { BreakerBoard } from '../resilience/index.js';
import type { HealthAdmission, RouteHealth } from '../routing/index.js';
import type { Blocklist } from './blocklist.js';

/** How long a blocked direct route is reported as unavailable when its entry has no end. */
const BLOCKED_RETRY_MS = 3_600_000;

export class RouteAdmission implements RouteHealth {
  constructor(
    private readonly blocklist: Blocklist,
    private readonly board: BreakerBoard,
    private readonly clock: Clock,
  ) {}

  admit(routeId: string): HealthAdmission {
    const blockedUntil = this.#blockedUntil(routeId);
    if (blockedUntil !== null) return { admitted: false, retryAt: blockedUntil, outOfService: true };
    return this.board.admit(routeId);
  }

  /** Whether the route takes requests as usual: no blocklist layer holds it and its breaker is closed. */
  inService(routeId: string): boolean {
    return !this.blocklist.isBlocked(routeId) && this.board.state(routeId) === 'closed';
  }

  refusal(routeId: string): { retryAt: number; outOfService: boolean } | null {
    const blockedUntil = this.#blockedUntil(routeId);
    if (blockedUntil !== null) return { retryAt: blockedUntil, outOfService: true };
    const retryAt = this.board.reopensAt(routeId);
    return retryAt === null ? null : { retryAt, outOfService: false };
  }

  /** When the route's last blocklist entry ends; null when none holds it. */
  #blockedUntil(routeId: string): number | null {
    const entries = this.blocklist.entriesFor(routeId);
    if (entries.length === 0) return null;
    return Math.max(...entries.map((e) => e.until ?? this.clock.now() + BLOCKED_RETRY_MS));
  }

  ignoredEndpoints(model: CatalogModel): readonly string[] {
    const blocked = this.blocklist.ignoredEndpoints(model);
    if (this.board.notClosed.size === 0) return blocked;
    const out = [...blocked];
    for (const route of model.routes) {
      if (route.endpoint !== null && this.board.notClosed.has(route.id) && !out.includes(route.endpoint)) out.push(route.endpoint);
    }
    return out;
  }

  probeEndpoint(model: CatalogModel, allowed: ReadonlySet<string> | null = null, excluded: ReadonlySet<string> | null = null): string | null {
    if (this.board.notClosed.size === 0) return null;
    for (const route of model.routes) {
      if (route.endpoint === null || !this.board.notClosed.has(route.id) || this.blocklist.isBlocked(route.id)) continue;
      if ((allowed !== null && !allowed.has(route.endpoint)) || excluded?.has(route.endpoint)) continue;
      if (!this.board.wouldAdmit(route.id)) continue;
      const admission = this.board.admit(route.id);
      if (admission.admitted && admission.probe) return route.endpoint;
    }
    return null;
  }
}
