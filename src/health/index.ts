export { Blocklist, type BlockEntry, type BlockLayer, type LeaveListener } from './blocklist.js';
export { RouteAdmission } from './admission.js';
export { RouteControl, RouteControlError, type RouteView, type RouteState } from './route-control.js';
