// One keep-alive undici Pool per upstream origin and connect timeout, shared by every route
// that reaches that origin.
import { Pool } from 'undici';

export interface PoolOptions {
  connections: number;
  connectTimeoutMs: number;
}

export class PoolSet {
  #pools = new Map<string, Pool>();

  get(origin: string, options: PoolOptions): Pool {
    const key = `${origin} ${options.connectTimeoutMs}`;
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
