export { Blocklist, type BlockEntry, type BlockLayer } from './blocklist.js';
