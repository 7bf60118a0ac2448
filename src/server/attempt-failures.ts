// What one request's failed attempts leave behind: the first one names the fallback (the
// x-warden-fallback header, the ledger line), all of them explain a spent chain, and their
// upstream statuses say when the client may come back (Retry-After).
import type { IncomingHttpHeaders } from 'node:http';
import type { AttemptChoice, FailedAttempt } from '../routing/index.js';
import type { UpstreamFailure } from '../upstream/index.js';
import type { FirstFailure } from './request-record.js';

/** A failed attempt, with what the client would get if it were the last one. */
export interface AttemptFailure extends FailedAttempt {
  status?: { status: number; headers: IncomingHttpHeaders; body: Buffer };
  failure?: UpstreamFailure;
  /**
   * The index of the choice that failed the gate, when an answer (streamed or not) had several: named
   * where operators read why (x-warden-fallback, a spent chain's message), not in `reason`,
   * which stays the stable code the planner, the metrics and the ledger key on.
   */
  failedChoice?: number;
}

/** `stray_punctuation`, or `stray_punctuation in choice 1` when one of several choices failed. */
function reasonOf(failure: { reason: string; failedChoice?: number }): string {
  return failure.failedChoice === undefined ? failure.reason : `${failure.reason} in choice ${failure.failedChoice}`;
}

/** The x-warden-fallback header: `quality:stray_punctuation in choice 1 at pa@pa`. */
export function fallbackHeader(first: FirstFailure): string {
  return `${reasonOf(first)} at ${first.route}`;
}

/** The route an answer belongs to: the endpoint that served it, when the aggregator says. */
export function servedRoute(choice: AttemptChoice, served: string | null): string {
  if (choice.pinnedEndpoint !== null || served === null) return choice.routeId;
  return choice.model.routeIdFor(served);
}

export class AttemptFailures {
  readonly #all: AttemptFailure[] = [];
  #first: FirstFailure | null = null;

  add(failure: AttemptFailure): void {
    if (this.#all.length === 0) this.#first = { reason: `${failure.outcome}:${failure.reason}`, route: servedRoute(failure.choice, failure.servedEndpoint), model: failure.choice.model.name, failedChoice: failure.failedChoice };
    this.#all.push(failure);
  }

  get count(): number {
    return this.#all.length;
  }

  get last(): AttemptFailure | undefined {
    return this.#all.at(-1);
  }

  get first(): FirstFailure | null {
    return this.#first;
  }

  /** Every failure, for the log line and message of a spent chain. */
  explain(): string {
    return this.#all.length > 0 ? this.#all.map((f) => `${servedRoute(f.choice, f.servedEndpoint)}: ${reasonOf(f)}`).join('; ') : 'every route is out of service';
  }

  /** The upstream statuses met (undefined for failures without one), for Retry-After. */
  statuses(): Array<AttemptFailure['status']> {
    return this.#all.map((f) => f.status);
  }
}
