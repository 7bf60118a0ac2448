// Keeps discovered models' endpoint sets current: once at start, then every provider's
// discovery interval. A failed refresh keeps the last known routes and is reported.
import type { WardenConfig } from '../config/index.js';
import { listEndpoints, type PoolSet } from '../upstream/index.js';
import type { Catalog, CatalogModel } from './catalog.js';

export interface DiscoveryLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** A listing is one small GET per model and interval: a few connections are plenty. */
const DISCOVERY_CONNECTIONS = 4;

export class DiscoveryLoop {
  #timers: NodeJS.Timeout[] = [];
  /** The listing in flight per model: a tick while one runs joins it rather than sending another. */
  readonly #inFlight = new Map<CatalogModel, Promise<void>>();

  constructor(
    private readonly catalog: Catalog,
    private readonly config: WardenConfig,
    private readonly pools: PoolSet,
    private readonly log: DiscoveryLog,
    private readonly now: () => number = Date.now,
    /** Hears each refresh that set a model's endpoints (its routes may be new). */
    private readonly onDiscovered: (model: CatalogModel) => void = () => {},
  ) {}

  /** Discovers every model once; resolves when all have answered or failed. */
  async refreshAll(): Promise<void> {
    await Promise.all(this.#discovering().map((m) => this.refresh(m)));
  }

  /**
   * Lists the model's endpoints once; a call while a listing is in flight joins it. Without
   * this a listing slower than the interval was joined by one more at every tick, and an older
   * one answering last overwrote the endpoints a newer one had set.
   */
  refresh(model: CatalogModel): Promise<void> {
    let running = this.#inFlight.get(model);
    if (!running) {
      running = this.#list(model).finally(() => this.#inFlight.delete(model));
      this.#inFlight.set(model, running);
    }
    return running;
  }

  async #list(model: CatalogModel): Promise<void> {
    const provider = this.config.providers[model.config.provider]!;
    try {
      // A small pool of its own (PoolSet keys by connections): a listing neither takes a live
      // request's connection nor waits behind live traffic for one.
      const endpoints = await listEndpoints({
        dispatcher: this.pools.get(model.upstream.origin, { connections: DISCOVERY_CONNECTIONS, connectTimeoutMs: model.timeouts.connect }),
        baseUrl: model.upstream.baseUrl,
        headers: model.upstream.headers,
        model: model.upstreamModel,
        timeoutMs: Math.min(model.timeouts.firstByte, 30_000),
      });
      model.setEndpoints(endpoints);
      model.lastDiscovery = { at: this.now(), error: null };
      this.onDiscovered(model);
      this.log.info({ model: model.name, routes: model.routes.map((r) => r.id) }, 'discovered endpoints');
    } catch (e) {
      const error = (e as Error).message;
      model.lastDiscovery = { at: this.now(), error };
      this.log.warn({ model: model.name, provider: provider.kind, error }, 'endpoint discovery failed; keeping last known routes');
    }
  }

  start(): void {
    for (const model of this.#discovering()) {
      const interval = this.config.providers[model.config.provider]!.discoveryInterval;
      const timer = setInterval(() => void this.refresh(model), interval);
      timer.unref();
      this.#timers.push(timer);
    }
  }

  stop(): void {
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
  }

  #discovering(): CatalogModel[] {
    return [...this.catalog.models.values()].filter((m) => m.discovers);
  }
}
