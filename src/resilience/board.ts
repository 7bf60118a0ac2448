// The breakers of every route, kept in the Store. The request path asks `admit` and reports
// `success` / `failure`; only transitions and failures are written back. With a shared store
// only transitions are written (each instance counts its own failures), other instances adopt
// them as they arrive, and a recovery probe must also win the shared probe slot, so a route
// coming back gets one probe from all instances together, not one from each (seed 002).
import type { Clock } from '../clock/index.js';
import { LocalCoordination, type Coordination, type Store } from '../state/index.js';
import { Breaker, type Admission, type BreakerPolicy, type BreakerState, type Transition } from './breaker.js';

export type TransitionListener = (route: string, transition: Transition) => void;
/** A state another instance decided, adopted here. */
export type AdoptionListener = (route: string, from: BreakerState, to: BreakerState) => void;

export class BreakerBoard {
  #breakers = new Map<string, Breaker>();
  /** Routes whose breaker is not closed: small, and empty on a healthy day, so checks are cheap. */
  readonly #notClosed = new Set<string>();

  /** Probe slots this instance holds, to free early when its probe fails. */
  readonly #probeTokens = new Map<string, string>();
  readonly #coordination: Coordination;
  #onAdopt: AdoptionListener = () => {};

  constructor(
    private readonly policyFor: (route: string) => BreakerPolicy,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly onTransition: TransitionListener,
    coordination: Coordination = new LocalCoordination(),
  ) {
    this.#coordination = coordination;
  }

  onAdopt(listener: AdoptionListener): void {
    this.#onAdopt = listener;
  }

  /**
   * Claims the shared probe slot for a probe `admit` granted. Only probes wait for this (one
   * request per route per cooldown); false means another instance probes, and this instance
   * keeps the route out of service until that probe's state arrives or its slot lapses.
   */
  async claimProbe(route: string): Promise<boolean> {
    if (!this.#coordination.shared) return true;
    const token = await this.#coordination.acquireProbe(route, this.policyFor(route).probeTimeout);
    if (token === null) return false;
    this.#probeTokens.set(route, token);
    return true;
  }

  /** Takes the state another instance stored for `route` (a change notice from the store). */
  adopt(route: string): void {
    const snapshot = this.store.getBreaker(route);
    const before = this.state(route);
    if (!snapshot) {
      this.#breakers.delete(route);
      this.#notClosed.delete(route);
    } else {
      this.#breakers.set(route, new Breaker(this.policyFor(route), snapshot));
      if (snapshot.state === 'closed') this.#notClosed.delete(route);
      else this.#notClosed.add(route);
    }
    const after = this.state(route);
    if (after !== before) this.#onAdopt(route, before, after);
  }

  admit(route: string): Admission {
    // The common case allocates nothing: no breaker yet (nor stored) means closed.
    const breaker = this.#breakers.get(route) ?? (this.store.getBreaker(route) ? this.#get(route) : undefined);
    if (!breaker || breaker.state === 'closed') return CLOSED_ADMISSION;
    const { admission, transition } = breaker.admit(this.clock.now());
    this.#after(route, breaker, transition, true);
    return admission;
  }

  /** When a route that would refuse a request now admits one again (no side effect); null when it would admit now. */
  reopensAt(route: string): number | null {
    return this.#breakers.get(route)?.reopensAt(this.clock.now()) ?? null;
  }

  /**
   * Loads the stored breakers of `routes` that are not closed. Breakers are otherwise read on
   * a route's first admission, which an OpenRouter endpoint never gets while the model's
   * requests go out with the not-closed endpoints in provider.ignore: after a restart an
   * endpoint left open would have taken traffic again until it failed anew.
   */
  recall(routes: Iterable<string>): void {
    for (const route of routes) {
      if (this.#breakers.has(route)) continue;
      const stored = this.store.getBreaker(route);
      if (stored && stored.state !== 'closed') this.#get(route);
    }
  }

  wouldAdmit(route: string): boolean {
    const breaker = this.#breakers.get(route);
    return !breaker || breaker.wouldAdmit(this.clock.now());
  }

  success(route: string, probe: boolean): void {
    if (probe) this.#probeTokens.delete(route);
    const breaker = this.#breakers.get(route);
    if (!breaker) return;
    const changedBefore = breaker.toJSON().consecutiveFailures > 0;
    this.#after(route, breaker, breaker.success(this.clock.now(), probe), changedBefore);
  }

  failure(route: string, probe: boolean, cause: string): void {
    const breaker = this.#get(route);
    this.#after(route, breaker, breaker.failure(this.clock.now(), probe, cause), true);
    if (probe) this.#probeTokens.delete(route);
  }

  /**
   * Hands back the probe slots this instance still holds (at shutdown). A probe that ended
   * keeps its slot until it lapses, failed or not: an instance that has not yet heard the
   * outcome must not send a second probe in the few milliseconds the notice takes.
   */
  releaseProbes(): void {
    for (const [route, token] of this.#probeTokens) this.#coordination.releaseProbe(route, token);
    this.#probeTokens.clear();
  }

  state(route: string): BreakerState {
    return this.#breakers.get(route)?.state ?? 'closed';
  }

  snapshot(route: string) {
    return this.#breakers.get(route)?.toJSON() ?? null;
  }

  /** Routes whose breaker is not closed (for the aggregator's ignore list). */
  get notClosed(): ReadonlySet<string> {
    return this.#notClosed;
  }

  #get(route: string): Breaker {
    let breaker = this.#breakers.get(route);
    if (!breaker) {
      breaker = new Breaker(this.policyFor(route), this.store.getBreaker(route));
      this.#breakers.set(route, breaker);
      if (breaker.state !== 'closed') this.#notClosed.add(route);
    }
    return breaker;
  }

  #after(route: string, breaker: Breaker, transition: Transition | null, changed: boolean): void {
    if (transition || (changed && !this.store.shared)) this.store.putBreaker(route, breaker.toJSON());
    if (!transition) return;
    if (transition.to === 'closed') this.#notClosed.delete(route);
    else this.#notClosed.add(route);
    this.onTransition(route, transition);
  }
}

const CLOSED_ADMISSION: Admission = { admitted: true, probe: false };
