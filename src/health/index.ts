export { Blocklist, type BlockEntry, type BlockLayer, type LeaveListener } from './blocklist.js';
export { RouteAdmission } from './admission.js';
