// Waiting out a 429 before trying the same route again, within the role's retry budget
// (`retry.maxWait` for one wait, `retry.budget` for all of a request's). Made on a request's
// first 429: most requests never wait.
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '../clock/index.js';
import { parseRetryAfter, WaitBudget } from '../resilience/index.js';

export class RateLimitWait {
  readonly #budget: WaitBudget;
  readonly #abort = new AbortController();

  /** `retry`: the role's; null for a model named directly, which never waits. */
  constructor(
    private readonly clock: Clock,
    retry: { maxWait: number; budget: number } | null,
  ) {
    this.#budget = new WaitBudget(retry?.maxWait ?? 0, retry?.budget ?? 0);
  }

  /**
   * Waits as the 429's Retry-After asks, then calls `retry`; `cut` instead when the wait is
   * aborted. False, and no wait, when the budget says no.
   */
  start(headers: IncomingHttpHeaders, retry: () => void, cut: () => void, onError: (e: unknown) => void): boolean {
    const ms = this.#budget.allow(parseRetryAfter(headers['retry-after'], this.clock.now()));
    if (ms === null) return false;
    this.clock.sleep(ms, this.#abort.signal).then(retry, cut).catch(onError);
    return true;
  }

  /** Ends a wait under way (the client left, the shutdown): its `cut` runs. */
  abort(reason: unknown): void {
    this.#abort.abort(reason);
  }
}
