// One HTTP exchange with an upstream, at undici's dispatch level: the cheapest way to move
// bytes (FINDINGS: about half the CPU of request() + pipeline()). The caller gets the status,
// then raw chunks as they arrive, and can pause, resume or abort at any moment.
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { fromUndiciError, sinkFailure, timeoutFailure, UpstreamFailure } from './errors.js';
import { poolFor, type PoolSet, type UpstreamTarget } from './pools.js';

/**
 * What reads an exchange. An exception it throws ends the exchange as its own failure (kind
 * `internal`, through onError), never as the upstream's.
 */
export interface ExchangeSink {
  onResponse(status: number, headers: IncomingHttpHeaders): void;
  onData(chunk: Buffer): void;
  onEnd(): void;
  /** Called at most once; after onEnd only when onEnd threw. */
  onError(failure: UpstreamFailure): void;
}

export interface ExchangeRequest {
  dispatcher: Dispatcher;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer;
  firstByteTimeoutMs: number;
  totalTimeoutMs: number;
  /** A stream's wait for its first token, ended by endFirstTokenWait(); null for none. */
  firstTokenTimeoutMs: number | null;
}

export class Exchange implements Dispatcher.DispatchHandler {
  #controller: Dispatcher.DispatchController | null = null;
  #pendingAbort: UpstreamFailure | null = null;
  #done = false;
  // One native timer per exchange, on purpose: a shared sweep (exchanges in a long-lived Set,
  // checked every 100 ms) was tried twice and each time made V8 promote in-flight requests to
  // the old generation (a mark-compact every 1.3 s at 10 connections, +25% CPU per request).
  // A stream's first-token deadline shares it: the timer is set for the nearer deadline and,
  // when the first token came in time, set again for the rest of the total. Most streams end
  // before their first-token deadline, so they set and clear one timer, not two.
  #timer: NodeJS.Timeout;
  readonly #totalMs: number;
  /** The first-token deadline the timer is set for, until the first token ends the wait. */
  #firstTokenMs: number | null;
  /** What is left of the total when a first-token deadline passes with the first token in; 0 after. */
  #restOfTotalMs: number;

  constructor(
    request: ExchangeRequest,
    private readonly sink: ExchangeSink,
  ) {
    const total = request.totalTimeoutMs;
    const firstToken = request.firstTokenTimeoutMs;
    this.#totalMs = total;
    this.#firstTokenMs = firstToken !== null && firstToken < total ? firstToken : null;
    this.#restOfTotalMs = this.#firstTokenMs === null ? 0 : total - this.#firstTokenMs;
    this.#timer = setTimeout(this.#onDeadline, this.#firstTokenMs ?? total);
    request.dispatcher.dispatch(
      {
        origin: undefined,
        method: 'POST',
        path: request.path,
        headers: request.headers,
        body: request.body,
        headersTimeout: request.firstByteTimeoutMs,
        // Off: undici's body timeout counts idleness from the last chunk, so set to the total it
        // could only ever fire after this exchange's own total deadline. Left on, undici swaps
        // its parser timer between the two values twice per request (made, cleared, made again)
        // and refreshes it on every chunk.
        bodyTimeout: 0,
      },
      this,
    );
  }

  get finished(): boolean {
    return this.#done;
  }

  /** The stream's first token came, or will not be waited for (an error status, the end): only the total deadline is left. */
  endFirstTokenWait(): void {
    this.#firstTokenMs = null;
  }

  #onDeadline = (): void => {
    if (this.#done) return;
    const firstToken = this.#firstTokenMs;
    if (firstToken !== null) return this.abort(timeoutFailure('first_token', firstToken));
    const rest = this.#restOfTotalMs;
    if (rest === 0) return this.abort(timeoutFailure('total', this.#totalMs));
    // Set for a first-token deadline that the first token beat: now the rest of the total.
    this.#restOfTotalMs = 0;
    this.#timer = setTimeout(this.#onDeadline, rest);
  };

  /** Stops the exchange; the sink hears `reason` through onError unless it already ended. */
  abort(reason: UpstreamFailure): void {
    if (this.#done) return;
    if (this.#controller) this.#controller.abort(reason);
    else this.#pendingAbort = reason;
  }

  pause(): void {
    this.#controller?.pause();
  }

  resume(): void {
    this.#controller?.resume();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#pendingAbort) controller.abort(this.#pendingAbort);
  }

  // The sink's exceptions are caught here, where they are told apart from the upstream's:
  // left to undici, a throw while writing to the client would come back through
  // onResponseError looking like a lost connection, and count against the route.
  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (this.#done) return;
    try {
      this.sink.onResponse(statusCode, headers);
    } catch (e) {
      controller.abort(sinkFailure(e));
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#done) return;
    try {
      this.sink.onData(chunk);
    } catch (e) {
      controller.abort(sinkFailure(e));
    }
  }

  onResponseEnd(): void {
    if (!this.#finish()) return;
    try {
      this.sink.onEnd();
    } catch (e) {
      // The upstream is done: no abort reports back, so the sink hears of it at once.
      this.sink.onError(sinkFailure(e));
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.#finish()) this.sink.onError(fromUndiciError(error));
  }

  #finish(): boolean {
    if (this.#done) return false;
    this.#done = true;
    clearTimeout(this.#timer);
    return true;
  }
}

/**
 * One chat completion exchange with a model's upstream, with its timeouts and credentials.
 * `stream`: the model's first-token timeout applies too (the relay ends it with endFirstTokenWait).
 */
export function exchangeWith(model: UpstreamTarget, pools: PoolSet, body: string | Buffer, sink: ExchangeSink, stream = false): Exchange {
  return new Exchange(
    {
      dispatcher: poolFor(model, pools),
      path: model.upstream.chatPath,
      headers: model.upstream.headers as Record<string, string>,
      body,
      firstByteTimeoutMs: model.timeouts.firstByte,
      totalTimeoutMs: model.timeouts.total,
      firstTokenTimeoutMs: stream ? model.timeouts.firstToken : null,
    },
    sink,
  );
}
