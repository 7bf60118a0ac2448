// The request log: one info line per chat request, written once when it ends (answered,
// streamed to the end, refused or failed), flat so pino serialises it in one pass.
import type { Logger } from './logger.js';

export interface RequestLine {
  requestId: string;
  /** The role, or the model named directly; null when the request was refused before either was known. */
  role: string | null;
  /** The route that answered or failed last; null when none was tried. */
  route: string | null;
  attempts: number;
  /** The `warden_requests_total` outcome, or the error code of a refused request. */
  outcome: string;
  /** The HTTP status sent; 499 when the client left before any was. */
  status: number;
  latencyMs: number;
}

export class RequestLog {
  readonly #log: Logger;

  constructor(log: Logger) {
    // The line holds ids, names and numbers Warden made itself: nothing to redact, and the
    // logger's wildcard redaction paths would double its cost (measured: ~7 µs → ~3.5 µs).
    this.#log = log.child({}, { redact: [] });
  }

  write(line: RequestLine): void {
    this.#log.info(line, 'request');
  }
}
