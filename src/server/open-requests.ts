// The requests the HTTP edge holds, so a shutdown can drain them: listening stops at once and
// idle keep-alive connections close; what is in flight gets a grace period to finish, and
// what is still open when it ends gets Warden's answer for it (an SSE error event on a stream
// under way, a 503 otherwise) before every connection is closed.
import type { Server, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { GatewayError } from '../protocol/errors.js';

export const shuttingDown = () => new GatewayError(503, 'gateway_shutting_down', 'service_unavailable', 'Warden is shutting down; retry the request', null, { 'retry-after': '1' });

/** Ends one request with the shutdown error; a chat execution brings its own, the edge's answers the rest. */
export type CutRequest = (error: GatewayError) => void;

export interface DrainReport {
  /** Requests that finished on their own once the shutdown had started. */
  drained: number;
  /** Requests still open when the grace period ended, answered with the shutdown error. */
  cut: number;
}

/** How long the answers of cut requests may take to reach their clients before the connections close. */
const CUT_FLUSH_MS = 1_000;

export class OpenRequests {
  #open = new Map<ServerResponse, CutRequest>();
  #draining = false;
  #cutting = false;
  #drained = 0;
  #onEmpty: (() => void) | null = null;
  #server: Server | null = null;
  /** Aborted when the grace period ends early (a second signal). */
  readonly #grace = new AbortController();

  /** A shutdown started: /readyz says not ready and answers close their connection. */
  get draining(): boolean {
    return this.#draining;
  }

  get size(): number {
    return this.#open.size;
  }

  /** Holds the request until its response closes; `cut` ends it if the grace period runs out. */
  track(res: ServerResponse, cut: CutRequest): void {
    if (this.#draining) res.shouldKeepAlive = false;
    this.#open.set(res, cut);
    res.once('close', () => {
      this.#open.delete(res);
      // A fresh map when empty, as InFlight does: a long-lived one taking young entries made
      // V8 promote them to the old generation.
      if (this.#open.size === 0) this.#open = new Map();
      if (!this.#draining) return;
      if (!this.#cutting) this.#drained++;
      // A connection kept alive past its answer would sit idle until the grace period ends.
      this.#server?.closeIdleConnections();
      if (this.#open.size === 0) this.#onEmpty?.();
    });
  }

  /** A request whose execution started: cutting it is the execution's to do. */
  cutWith(res: ServerResponse, cut: CutRequest): void {
    if (this.#open.has(res)) this.#open.set(res, cut);
  }

  /**
   * Stops `server` listening, waits for the open requests until `grace` resolves (or
   * endGrace() is called), cuts what is left and closes every connection.
   */
  async drain(server: Server, grace: (signal: AbortSignal) => Promise<void>): Promise<DrainReport> {
    this.#draining = true;
    this.#server = server;
    // Since Node 19, close() also closes the idle keep-alive connections.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const res of this.#open.keys()) if (!res.headersSent) res.shouldKeepAlive = false;
    if (this.#open.size > 0) {
      const graceOver = grace(this.#grace.signal).catch(() => {});
      await Promise.race([this.#empty(), graceOver]);
      this.#grace.abort();
    }
    this.#cutting = true;
    const left = [...this.#open.values()];
    const error = shuttingDown();
    for (const cut of left) cut(error);
    if (this.#open.size > 0) {
      // Bounded: a client that reads nothing must not hold the shutdown.
      const flushed = new AbortController();
      await Promise.race([this.#empty(), delay(CUT_FLUSH_MS, undefined, { signal: flushed.signal, ref: false }).catch(() => {})]);
      flushed.abort();
    }
    server.closeAllConnections();
    await closed;
    return { drained: this.#drained, cut: left.length };
  }

  /** Ends the grace period now: a second signal during the drain. */
  endGrace(): void {
    this.#grace.abort();
  }

  #empty(): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => (this.#onEmpty = resolve));
  }
}
