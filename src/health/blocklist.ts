// Routes kept out of service, by layer. This issue has the reviewed built-in layer from the
// config; the runtime incident and canary quarantine layers add entries the same way.
import type { CatalogModel } from '../catalog/index.js';
import { parseRouteId } from '../catalog/index.js';

export type BlockLayer = 'builtin' | 'runtime' | 'quarantine';

export interface BlockEntry {
  route: string;
  layer: BlockLayer;
  reason: string;
  /** Epoch ms when the entry lapses; null for no end. */
  until: number | null;
}

export class Blocklist {
  #entries = new Map<string, BlockEntry[]>();
  #ignoreCache = new Map<string, readonly string[]>();

  constructor(private readonly now: () => number = Date.now) {}

  add(entry: BlockEntry): void {
    const list = this.#entries.get(entry.route) ?? [];
    list.push(entry);
    this.#entries.set(entry.route, list);
    this.#ignoreCache.clear();
  }

  /** The entries currently holding a route out of service (expired ones are ignored). */
  entriesFor(routeId: string): BlockEntry[] {
    const now = this.now();
    return (this.#entries.get(routeId) ?? []).filter((e) => e.until === null || e.until > now);
  }

  isBlocked(routeId: string): boolean {
    return this.entriesFor(routeId).length > 0;
  }

  /**
   * Endpoint names of `model` that must not serve, for an aggregator's ignore list. Cached
   * until the list changes, so the hot path allocates nothing; a timed entry bounds the cache.
   */
  ignoredEndpoints(model: CatalogModel): readonly string[] {
    const cached = this.#ignoreCache.get(model.name);
    if (cached && !this.#hasTimedEntries) return cached;
    const out: string[] = [];
    for (const routeId of this.#entries.keys()) {
      const parts = parseRouteId(routeId);
      if (parts && parts.model === model.name && parts.endpoint !== null && this.isBlocked(routeId)) out.push(parts.endpoint);
    }
    this.#ignoreCache.set(model.name, out);
    return out;
  }

  get #hasTimedEntries(): boolean {
    for (const list of this.#entries.values()) if (list.some((e) => e.until !== null)) return true;
    return false;
  }
}
