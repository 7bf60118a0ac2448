// One keep-alive undici Pool per upstream origin and pool options, shared by every route that
// reaches that origin with those options.
import { Pool, type Dispatcher } from 'undici';

export interface PoolOptions {
  connections: number;
  connectTimeoutMs: number;
}

export class PoolSet {
  #pools = new Map<string, Pool>();

  get(origin: string, options: PoolOptions): Pool {
    // Keyed by everything that shapes the pool: keyed by origin alone, whoever asked first
    // (discovery's 4 connections) would set the connection cap of all live traffic after it.
    const key = `${origin} ${options.connections} ${options.connectTimeoutMs}`;
    let pool = this.#pools.get(key);
    if (!pool) {
      pool = new Pool(origin, {
        connections: options.connections,
        connect: { timeout: options.connectTimeoutMs },
        keepAliveTimeout: 30_000,
        pipelining: 1,
      });
      this.#pools.set(key, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
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
