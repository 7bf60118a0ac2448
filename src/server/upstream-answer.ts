// What the client gets when the upstream did not produce a usable answer: its own 4xx as it
// wrote it, a 429 with its Retry-After, or a 502/504 naming the route and the reason.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { errorMessageOf, GatewayError, routeUnavailable } from '../protocol/errors.js';
import type { Outcome } from '../telemetry/index.js';
import type { UpstreamFailure } from '../upstream/index.js';

export interface ClientAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer | string;
  outcome: Outcome;
}

export function answerForStatus(status: number, headers: IncomingHttpHeaders, body: Buffer, routeId: string): ClientAnswer {
  if (status === 429) {
    const out: OutgoingHttpHeaders = { 'content-type': headers['content-type'] ?? 'application/json' };
    if (headers['retry-after']) out['retry-after'] = headers['retry-after'];
    return { status, headers: out, body, outcome: 'rate_limited' };
  }
  if (status >= 400 && status < 500) {
    return { status, headers: { 'content-type': headers['content-type'] ?? 'application/json' }, body, outcome: 'client_error' };
  }
  const detail = upstreamMessage(body);
  const error = new GatewayError(502, 'upstream_error', 'upstream_error', `upstream ${routeId} answered ${status}${detail ? `: ${detail}` : ''}`);
  return { status: 502, headers: { 'content-type': 'application/json' }, body: JSON.stringify(error.toBody()), outcome: 'upstream_error' };
}

/** What a failed attempt left for the client: the outcome class, the upstream's status answer or its failure. */
export interface AttemptLeftover {
  outcome: string;
  reason: string;
  status?: { status: number };
  failure?: UpstreamFailure;
}

/**
 * The error a model named directly answers with when its route gave nothing to pass through
 * (an upstream status answer is passed through instead, except a 401/403: that refused Warden's
 * key, and the client's own key is fine). `last` is undefined when the route was refused.
 */
export function directModelError(last: AttemptLeftover | undefined, routeId: string, retryAfterSeconds: () => number): { error: GatewayError; outcome: Outcome } {
  if (last?.outcome === 'config' && last.status) return { error: credentialsRefused(routeId, last.status.status), outcome: 'upstream_error' };
  if (last?.failure) return { error: errorForFailure(last.failure, routeId), outcome: outcomeForFailure(last.failure) };
  return { error: routeUnavailable(`route ${routeId} is out of service${last ? `: ${last.reason}` : ''}`, retryAfterSeconds()), outcome: 'upstream_error' };
}

/** The upstream refused Warden's own credentials (401/403): the operator's to fix, so a 502, not the upstream's status. */
export function credentialsRefused(routeId: string, status: number): GatewayError {
  return new GatewayError(502, 'upstream_auth_failed', 'upstream_error', `upstream ${routeId} refused the gateway's credentials (${status}); the operator must check the provider's apiKey`);
}

export function errorForFailure(failure: UpstreamFailure, routeId: string): GatewayError {
  // Shed (the route left service, or its provider is at its quota) is Warden's own refusal: 503.
  const status = failure.kind === 'timeout' ? 504 : failure.kind === 'shed' ? 503 : 502;
  return new GatewayError(status, failure.code, 'upstream_error', `upstream ${routeId}: ${failure.message}`);
}

export function outcomeForFailure(failure: UpstreamFailure): Outcome {
  if (failure.kind === 'aborted') return 'client_aborted';
  if (failure.kind === 'timeout') return 'timeout';
  if (failure.kind === 'invalid_response') return 'invalid_response';
  return 'upstream_error';
}

/** The upstream's own error message, when its body is an OpenAI-style error. */
function upstreamMessage(body: Buffer): string {
  try {
    return errorMessageOf(JSON.parse(body.toString('utf8'))) ?? '';
  } catch {
    return '';
  }
}
