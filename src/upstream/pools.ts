// One keep-alive undici Pool per upstream origin and pool options, shared by every route that
// reaches that origin with those options. undici fixes a pool's connect timeout when it is
// made, so a reload that changes one retires the pools made with the old value: they take no
// new request and close once the requests they carry have ended.
import { Pool, type Dispatcher } from 'undici';

export interface PoolOptions {
  connections: number;
  connectTimeoutMs: number;
}

interface PoolEntry {
  pool: Pool;
  origin: string;
  connectTimeoutMs: number;
}

export class PoolSet {
  #pools = new Map<string, PoolEntry>();
  /** Retired pools still carrying requests, destroyed by close() if they have not finished by then. */
  readonly #retiring = new Set<Pool>();

  get(origin: string, options: PoolOptions): Pool {
    // Keyed by everything that shapes the pool: keyed by origin alone, whoever asked first
    // (discovery's 4 connections) would set the connection cap of all live traffic after it.
    const key = `${origin} ${options.connections} ${options.connectTimeoutMs}`;
    let entry = this.#pools.get(key);
    if (!entry) {
      const pool = new Pool(origin, {
        connections: options.connections,
        connect: { timeout: options.connectTimeoutMs },
        keepAliveTimeout: 30_000,
        pipelining: 1,
      });
      this.#pools.set(key, (entry = { pool, origin, connectTimeoutMs: options.connectTimeoutMs }));
    }
    return entry.pool;
  }

  /**
   * Retires every pool whose origin and connect timeout no target uses any more (after a
   * reload changed connect timeouts): requests in flight on it finish, then it closes.
   * Answers how many pools were retired.
   */
  retireUnused(targets: Iterable<UpstreamTarget>): number {
    const used = new Set<string>();
    for (const t of targets) used.add(`${t.upstream.origin} ${t.timeouts.connect}`);
    let retired = 0;
    for (const [key, entry] of this.#pools) {
      if (used.has(`${entry.origin} ${entry.connectTimeoutMs}`)) continue;
      this.#pools.delete(key);
      this.#retiring.add(entry.pool);
      // close() is undici's graceful end: queued and running requests complete first.
      void entry.pool.close().catch(() => undefined).finally(() => this.#retiring.delete(entry.pool));
      retired++;
    }
    return retired;
  }

  async close(): Promise<void> {
    const pools = [...[...this.#pools.values()].map((e) => e.pool), ...this.#retiring];
    this.#pools.clear();
    this.#retiring.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)));
  }
}

/** What an exchange needs to know of a model's upstream (a catalog model fits). */
export interface UpstreamTarget {
  dispatcher: Dispatcher | null;
  upstream: { origin: string; connections: number; chatPath: string; headers: Readonly<Record<string, string>> };
  timeouts: { connect: number; firstByte: number; firstToken: number; total: number };
}

/** A model's pool, looked up once and kept on the model: the request path builds no key. */
export function poolFor(model: UpstreamTarget, pools: PoolSet): Dispatcher {
  return (model.dispatcher ??= pools.get(model.upstream.origin, { connections: model.upstream.connections, connectTimeoutMs: model.timeouts.connect }));
}
