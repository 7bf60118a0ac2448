export { Blocklist, type BlockEntry, type BlockLayer } from './blocklist.js';
export { RouteAdmission } from './admission.js';
