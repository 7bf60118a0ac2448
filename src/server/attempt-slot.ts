// What one attempt holds while it is in flight: its provider's concurrency slot (when the
// provider has a quota) and its entry in the in-flight registry, under the route that is
// serving it — so a route leaving service drains what it really carries, and an OpenRouter
// attempt that another endpoint answered is found under that endpoint's route.
import type { ConcurrencyQuota, InFlight, InFlightHandle } from '../resilience/index.js';
import type { UpstreamFailure } from '../upstream/index.js';

export class AttemptSlot implements InFlightHandle {
  #route: string;

  /** Takes no quota slot itself: the caller took it (and passed the route over when it could not). */
  constructor(
    private readonly inflight: InFlight,
    private readonly quota: ConcurrencyQuota | null,
    private readonly provider: string,
    route: string,
    readonly abort: (failure: UpstreamFailure) => void,
  ) {
    this.#route = route;
    inflight.add(route, this);
  }

  /** The answer named the route that serves it: registered under that one from now on. */
  servedBy(route: string): void {
    if (route === this.#route) return;
    this.inflight.remove(this.#route, this);
    this.#route = route;
    this.inflight.add(route, this);
  }

  /** The attempt ended: the registry entry and the quota slot go back. */
  release(): void {
    this.inflight.remove(this.#route, this);
    this.quota?.release(this.provider);
  }
}
