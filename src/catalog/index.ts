export { Catalog, CatalogModel, DEFAULT_TIMEOUTS, type Route, type ResolvedTimeouts, type UpstreamAddress } from './catalog.js';
export { DiscoveryLoop, type DiscoveryLog } from './discovery-loop.js';
export { formatRouteId, parseRouteId, type RouteIdParts } from './route-id.js';
