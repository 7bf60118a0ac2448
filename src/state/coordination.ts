// What instances must agree on beyond stored state: who sends a route's recovery probe, who
// runs the canary, how many instances share a quota. One instance alone needs no agreement,
// so the local version grants everything; the Redis version (redis-coordination.ts) asks
// Redis and, when Redis cannot answer in time, grants as the local one would (seed 002:
// without Redis the layer degrades to single-instance behaviour and never blocks a request).

export interface Coordination {
  /** True when several instances coordinate through this (Redis). */
  readonly shared: boolean;
  /**
   * Takes a route's recovery-probe slot for `ttlMs`: a token when this caller is the one
   * probe across all instances, null when another instance holds it. The slot lapses by
   * itself if its holder dies.
   */
  acquireProbe(route: string, ttlMs: number): Promise<string | null>;
  /** Frees the slot early, only if `token` still holds it (a failed probe lets the next one go). */
  releaseProbe(route: string, token: string): void;
  /** Takes or renews a named lease; true while this instance holds it. */
  holdLease(name: string, ttlMs: number): Promise<boolean>;
  /** Gives a lease up at shutdown so another instance takes over without waiting for it to lapse. */
  releaseLease(name: string): Promise<void>;
  /** Says this instance is alive for `ttlMs` and answers how many instances are. */
  heartbeat(ttlMs: number): Promise<number>;
}

/** A single instance: it is every probe, the leader, and alone. */
export class LocalCoordination implements Coordination {
  readonly shared = false;

  async acquireProbe(): Promise<string | null> {
    return 'local';
  }

  releaseProbe(): void {}

  async holdLease(): Promise<boolean> {
    return true;
  }

  async releaseLease(): Promise<void> {}

  async heartbeat(): Promise<number> {
    return 1;
  }
}
