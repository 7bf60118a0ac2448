// Everything the page shows, in one JSON answer per poll (GET /admin/dashboard): routes,
// roles, runtime blocks, the time series, the counterfactual numbers and the audit log as filtered.
import type { RouteView } from '../health/index.js';
import type { AuditEvent, RuntimeBlock } from '../state/index.js';
import { counterfactuals, type Counterfactuals } from './counterfactuals.js';
import { Reading, type MetricFamily } from './reading.js';
import { costBasis } from './pricing.js';
import { dashboardRoles, tiersOf, type DashboardRoles, type RoleSource } from './roles.js';
import { dashboardRoute, type DashboardRoute } from './routes.js';
import type { TimelinePoint, TimelineSampler } from './timeline.js';

export interface AuditQuery {
  route?: string;
  type?: string;
  since?: number;
  limit: number;
}

export interface DashboardSnapshot {
  /** The gateway's clock now: the page measures "until" and "since" against it, not the browser's. */
  at: number;
  canary: { mode: string; watch: readonly string[]; ladderMs: readonly number[]; intervalMs: number } | null;
  routes: DashboardRoute[];
  roles: DashboardRoles;
  /** Runtime incident entries (layer 2); manual sheds and restores show on their routes. */
  blocks: RuntimeBlock[];
  timeline: { everyMs: number; points: TimelinePoint[] };
  counterfactuals: Counterfactuals;
  audit: { query: AuditQuery; events: AuditEvent[] };
}

export interface DashboardDataOptions {
  control: { views(): RouteView[]; runtimeBlocks(): RuntimeBlock[] };
  audit: (limit: number, filter: Omit<AuditQuery, 'limit'>) => AuditEvent[];
  sampler: TimelineSampler;
  /** The registry now, for the running totals behind the counterfactual numbers. */
  read: () => Promise<readonly MetricFamily[]>;
  now: () => number;
  /** The roles as they serve now (YAML and runtime overlay): the Roles panel and the counterfactuals' tiers. */
  roles: RoleSource;
  /** The canary's settings as they serve now (a config reload changes them). */
  canary: () => DashboardSnapshot['canary'];
}

export class DashboardData {
  constructor(private readonly o: DashboardDataOptions) {}

  async snapshot(query: AuditQuery): Promise<DashboardSnapshot> {
    const reading = Reading.of(await this.o.read());
    const { limit, ...filter } = query;
    const roles = dashboardRoles(this.o.roles);
    const at = this.o.now();
    return {
      at,
      canary: this.o.canary(),
      routes: this.o.control.views().map((view) => dashboardRoute(view, at)),
      roles,
      blocks: this.o.control.runtimeBlocks().filter((b) => b.kind === 'block'),
      timeline: { everyMs: this.o.sampler.everyMs, points: this.o.sampler.points() },
      counterfactuals: counterfactuals(reading, tiersOf(roles), costBasis(this.o.roles.effective.models, roles)),
      audit: { query, events: this.o.audit(limit, filter) },
    };
  }
}
