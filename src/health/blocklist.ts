// Routes kept out of service, by layer (seed 000's three layers, plus manual shed):
// `builtin` — reviewed entries from the config; `runtime` — incident entries added through
// the admin API; `quarantine` — the canary's timed entries; `shed` — an operator's manual
// shed. A manual `restore` keeps a route in service whatever the canary says. The merged
// view decides admission and becomes OpenRouter's provider.ignore.
import type { CatalogModel } from '../catalog/index.js';
import { parseRouteId } from '../catalog/index.js';

export type BlockLayer = 'builtin' | 'runtime' | 'quarantine' | 'shed';

export interface BlockEntry {
  id: string;
  route: string;
  layer: BlockLayer;
  reason: string;
  /** Epoch ms when the entry lapses; null for no end. */
  until: number | null;
}

export type LeaveListener = (route: string, entry: BlockEntry) => void;

export class Blocklist {
  #entries = new Map<string, BlockEntry>();
  #byRoute = new Map<string, BlockEntry[]>();
  #restored = new Map<string, number | null>();
  #ignoreCache = new Map<string, readonly string[]>();
  /** The cache holds until the next timed entry (or restore) lapses. */
  #cacheValidUntil = Number.POSITIVE_INFINITY;
  #listeners: LeaveListener[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Called when an entry takes a route that was in service out of it (to shed and drain). */
  onLeave(listener: LeaveListener): void {
    this.#listeners.push(listener);
  }

  add(entry: BlockEntry): void {
    const wasBlocked = this.isBlocked(entry.route);
    this.remove(entry.id);
    this.#entries.set(entry.id, entry);
    const list = this.#byRoute.get(entry.route) ?? [];
    list.push(entry);
    this.#byRoute.set(entry.route, list);
    this.#invalidate();
    if (!wasBlocked && this.isBlocked(entry.route)) for (const l of this.#listeners) l(entry.route, entry);
  }

  remove(id: string): BlockEntry | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    this.#entries.delete(id);
    const list = (this.#byRoute.get(entry.route) ?? []).filter((e) => e.id !== id);
    if (list.length > 0) this.#byRoute.set(entry.route, list);
    else this.#byRoute.delete(entry.route);
    this.#invalidate();
    return entry;
  }

  /** Removes a route's entries of one layer; returns them. */
  removeLayer(route: string, layer: BlockLayer): BlockEntry[] {
    const removed = (this.#byRoute.get(route) ?? []).filter((e) => e.layer === layer);
    for (const e of removed) this.remove(e.id);
    return removed;
  }

  /** Keeps a route in service over the canary's quarantine (not over human blocks). */
  restore(route: string, until: number | null): void {
    this.#restored.set(route, until);
    this.#invalidate();
  }

  unrestore(route: string): void {
    this.#restored.delete(route);
    this.#invalidate();
  }

  #invalidate(): void {
    this.#ignoreCache.clear();
    this.#cacheValidUntil = Number.NEGATIVE_INFINITY;
  }

  isRestored(route: string): boolean {
    if (!this.#restored.has(route)) return false;
    const until = this.#restored.get(route)!;
    return until === null || until > this.now();
  }

  /** The entries currently holding a route out of service (lapsed ones and restored quarantines are ignored). */
  entriesFor(routeId: string): BlockEntry[] {
    const list = this.#byRoute.get(routeId);
    if (!list) return NONE;
    const now = this.now();
    const restored = this.isRestored(routeId);
    return list.filter((e) => (e.until === null || e.until > now) && !(restored && e.layer === 'quarantine'));
  }

  isBlocked(routeId: string): boolean {
    return this.entriesFor(routeId).length > 0;
  }

  /**
   * Endpoint names of `model` that must not serve, for an aggregator's ignore list. Cached
   * until the list changes or its next timed entry lapses, so the hot path allocates nothing.
   */
  ignoredEndpoints(model: CatalogModel): readonly string[] {
    const now = this.now();
    if (now >= this.#cacheValidUntil) this.#refresh(now);
    const cached = this.#ignoreCache.get(model.name);
    if (cached) return cached;
    const out: string[] = [];
    for (const routeId of this.#byRoute.keys()) {
      const parts = parseRouteId(routeId);
      if (parts && parts.model === model.name && parts.endpoint !== null && this.isBlocked(routeId)) out.push(parts.endpoint);
    }
    this.#ignoreCache.set(model.name, out);
    return out;
  }

  /** Drops lapsed entries and restores, and dates the cache to the next lapse. */
  #refresh(now: number): void {
    for (const e of [...this.#entries.values()]) if (e.until !== null && e.until <= now) this.remove(e.id);
    for (const [route, until] of [...this.#restored]) if (until !== null && until <= now) this.#restored.delete(route);
    this.#ignoreCache.clear();
    let next = Number.POSITIVE_INFINITY;
    for (const e of this.#entries.values()) if (e.until !== null && e.until < next) next = e.until;
    for (const until of this.#restored.values()) if (until !== null && until < next) next = until;
    this.#cacheValidUntil = next;
  }
}

const NONE: BlockEntry[] = [];
