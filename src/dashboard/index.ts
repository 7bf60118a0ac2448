// The live dashboard: page files, the timeline sampled from /metrics, and the one JSON
// snapshot the page polls (GET /admin/dashboard).
export { DashboardAssets, dashboardAssets, PAGE_HEADERS, type PageAsset } from './assets.js';
export { counterfactuals, type Counterfactuals, type ModelNumbers, type RoleNumbers, type Tier } from './counterfactuals.js';
export { costBasis, unpricedAmong, type CostBasis } from './pricing.js';
export { DashboardError, isDashboardError, type DashboardErrorCode } from './errors.js';
export { Reading, type MetricFamily } from './reading.js';
export { dashboardRoles, tiersOf, type DashboardRole, type DashboardRoles, type DashboardRollout, type RoleSource } from './roles.js';
export { dashboardRoute, describeLanguages, type DashboardRoute, type ProbeRow } from './routes.js';
export { DashboardData, type AuditQuery, type DashboardDataOptions, type DashboardSnapshot } from './snapshot.js';
export { Timeline, TimelineSampler, type SamplerOptions, type TimelineOptions, type TimelinePoint } from './timeline.js';
