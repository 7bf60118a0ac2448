// The breakers of every route, kept in the Store. The request path asks `admit` and reports
// `success` / `failure`; only transitions and failures are written back.
import type { Clock } from '../clock/index.js';
import type { Store } from '../state/index.js';
import { Breaker, type Admission, type BreakerPolicy, type BreakerState, type Transition } from './breaker.js';

export type TransitionListener = (route: string, transition: Transition) => void;

export class BreakerBoard {
  #breakers = new Map<string, Breaker>();
  /** Routes whose breaker is not closed: small, and empty on a healthy day, so checks are cheap. */
  readonly #notClosed = new Set<string>();

  constructor(
    private readonly policyFor: (route: string) => BreakerPolicy,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly onTransition: TransitionListener,
  ) {}

  admit(route: string): Admission {
    // The common case allocates nothing: no breaker yet (nor stored) means closed.
    const breaker = this.#breakers.get(route) ?? (this.store.getBreaker(route) ? this.#get(route) : undefined);
    if (!breaker || breaker.state === 'closed') return CLOSED_ADMISSION;
    const { admission, transition } = breaker.admit(this.clock.now());
    this.#after(route, breaker, transition, true);
    return admission;
  }

  wouldAdmit(route: string): boolean {
    const breaker = this.#breakers.get(route);
    return !breaker || breaker.wouldAdmit(this.clock.now());
  }

  success(route: string, probe: boolean): void {
    const breaker = this.#breakers.get(route);
    if (!breaker) return;
    const changedBefore = breaker.toJSON().consecutiveFailures > 0;
    this.#after(route, breaker, breaker.success(this.clock.now(), probe), changedBefore);
  }

  failure(route: string, probe: boolean, cause: string): void {
    const breaker = this.#get(route);
    this.#after(route, breaker, breaker.failure(this.clock.now(), probe, cause), true);
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
    if (changed || transition) this.store.putBreaker(route, breaker.toJSON());
    if (!transition) return;
    if (transition.to === 'closed') this.#notClosed.delete(route);
    else this.#notClosed.add(route);
    this.onTransition(route, transition);
  }
}

const CLOSED_ADMISSION: Admission = { admitted: true, probe: false };
