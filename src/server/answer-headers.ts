// What an answer tells the client about how it was made (x-warden-* headers) and, when no
// route could answer, when to come back (Retry-After). Pure: the execution gathers the facts.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { parseRetryAfter } from '../resilience/index.js';

export interface AnswerFacts {
  requestId: string;
  /**
   * The route the answer belongs to (or the one that failed last); null when no route made it
   * (a tier's stand-in answer), so the header names no route that did not serve.
   */
  route: string | null;
  attempts: number;
  role: string | null;
  /** The first failure: `outcome:reason at route`; null when the first attempt answered. */
  fallback: string | null;
  /** `score=…; cause=…; to=…` when the request was escalated. */
  escalation: string | null;
}

export function wardenHeaders(facts: AnswerFacts, contentType?: string): OutgoingHttpHeaders {
  // Route ids end in the endpoint name the upstream wrote (its endpoint listing, the answer's
  // `provider` field): any text, a line break or a name in another script included. Node refuses
  // such a header value (ERR_INVALID_CHAR: an answer already paid for became a 500, a stream an
  // error event and a breaker failure), so route ids are escaped like the escalation's keyword.
  const headers: OutgoingHttpHeaders = { 'x-request-id': facts.requestId, 'x-warden-attempts': String(Math.max(1, facts.attempts)) };
  if (facts.route !== null) headers['x-warden-route'] = asciiHeaderValue(facts.route);
  if (contentType) headers['content-type'] = contentType;
  if (facts.role) headers['x-warden-role'] = facts.role;
  if (facts.fallback) headers['x-warden-fallback'] = asciiHeaderValue(facts.fallback);
  // The cause may quote a keyword in any script; a header value must be ASCII (node refuses
  // the rest), so it is escaped as in JSON: cause=keyword="\u8bc1\u660e".
  if (facts.escalation) headers['x-warden-escalation'] = asciiHeaderValue(facts.escalation);
  return headers;
}

/** `value` with every character outside printable ASCII written as a JSON-style \uXXXX escape. */
export function asciiHeaderValue(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * When to come back, in seconds: the first refused route's reopening, else the shortest
 * Retry-After of the 429s the request met (the upstreams' own word), else 30 s.
 */
export function retryAfterSeconds(earliestRetryAt: number | null, statuses: ReadonlyArray<{ status: number; headers: IncomingHttpHeaders } | undefined>, now: number): number {
  if (earliestRetryAt !== null) return Math.max(1, Math.ceil((earliestRetryAt - now) / 1000));
  let soonestMs: number | null = null;
  for (const s of statuses) {
    if (s?.status !== 429) continue;
    const ms = parseRetryAfter(s.headers['retry-after'], now);
    if (ms !== null && (soonestMs === null || ms < soonestMs)) soonestMs = ms;
  }
  return soonestMs === null ? 30 : Math.max(1, Math.ceil(soonestMs / 1000));
}
