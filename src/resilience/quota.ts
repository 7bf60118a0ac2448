// A per-provider concurrency quota shared by every instance (seed 002: 熔断状态、探针锁、并发配额
// 全部经 Redis 跨实例共享). Asking Redis for a slot on every request would put a round trip on
// the hot path, so the quota is split instead: each instance takes an equal share of it, sized
// by how many instances the shared instance list says are alive, and counts its own in-flight
// attempts locally. The shares never add up to more than the quota (floor, at least one slot
// each). Without Redis an instance keeps the share it last had.

export class ConcurrencyQuota {
  readonly #limits: ReadonlyMap<string, number>;
  readonly #inFlight = new Map<string, number>();
  readonly #shares = new Map<string, number>();
  #instances = 1;

  /** `limits`: provider name → concurrent attempts allowed across all instances. */
  constructor(limits: ReadonlyMap<string, number>) {
    this.#limits = limits;
    this.#resize();
  }

  get instances(): number {
    return this.#instances;
  }

  /** This instance's share of a provider's quota, or null when the provider has none. */
  share(provider: string): number | null {
    return this.#shares.get(provider) ?? null;
  }

  inFlight(provider: string): number {
    return this.#inFlight.get(provider) ?? 0;
  }

  /** Takes a slot; false when this instance's share is in use. Pair every true with `release`. */
  take(provider: string): boolean {
    const share = this.#shares.get(provider);
    if (share === undefined) return true;
    const used = this.#inFlight.get(provider) ?? 0;
    if (used >= share) return false;
    this.#inFlight.set(provider, used + 1);
    return true;
  }

  release(provider: string): void {
    const used = this.#inFlight.get(provider);
    if (used !== undefined && used > 0) this.#inFlight.set(provider, used - 1);
  }

  /** The instance list changed size: shares follow. */
  setInstances(count: number): void {
    const instances = Math.max(1, Math.floor(count));
    if (instances === this.#instances) return;
    this.#instances = instances;
    this.#resize();
  }

  #resize(): void {
    for (const [provider, limit] of this.#limits) this.#shares.set(provider, Math.max(1, Math.floor(limit / this.#instances)));
  }
}
