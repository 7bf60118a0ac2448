// Failures of one upstream exchange, each with a stable code. Whether a failure counts
// against the route (transport) or not is decided from `kind` by the resilience layer.

/**
 * `shed`: Warden itself ended the exchange because its route left service (not the route's fault).
 * `internal`: Warden failed while handling what the upstream sent — writing the client's answer,
 * or its own code threw — and ended the exchange: never the route's fault either.
 */
export type UpstreamFailureKind = 'connect' | 'timeout' | 'reset' | 'invalid_response' | 'aborted' | 'shed' | 'internal';

export class UpstreamFailure extends Error {
  constructor(
    readonly kind: UpstreamFailureKind,
    readonly code: string,
    message: string,
    options?: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamFailure';
  }
}

export function isUpstreamFailure(e: unknown): e is UpstreamFailure {
  return e instanceof UpstreamFailure;
}

export const timeoutFailure = (phase: 'first_byte' | 'first_token' | 'total', ms: number) =>
  new UpstreamFailure('timeout', `upstream_timeout_${phase}`, `upstream gave no ${phase.replace('_', ' ')} within ${ms} ms`);

export const quotaFull = (provider: string) => new UpstreamFailure('shed', 'provider_quota_full', `provider ${provider} is at its concurrency quota (providers.${provider}.maxConcurrency)`);
export const routeShed = (route: string, why: string) => new UpstreamFailure('shed', 'route_shed', `route ${route} left service (${why}) while the request was in flight`);

export const invalidResponse = (detail: string) => new UpstreamFailure('invalid_response', 'upstream_invalid_response', detail);

/** The upstream ended its response cleanly before the stream's [DONE]: to the client, the same loss as a reset. */
export const streamCut = () => new UpstreamFailure('reset', 'upstream_connection_lost', 'upstream closed the stream before it finished');

/**
 * What an exception thrown by the exchange's sink (the relay: writing the client's answer, the
 * gate, Warden's own code) is: Warden's failure, not the upstream's, whatever the exception —
 * undici would report it like a lost connection. The message is for the log; the client is
 * told only that Warden failed.
 */
export function sinkFailure(error: unknown): UpstreamFailure {
  const detail = error instanceof Error ? `${(error as { code?: string }).code ?? error.name}: ${error.message}` : String(error);
  return new UpstreamFailure('internal', 'gateway_internal_error', `Warden failed while answering the client (${detail})`, { cause: error });
}

/** Maps undici's errors to ours; the message keeps undici's code, never a URL with credentials. */
export function fromUndiciError(error: Error & { code?: string }): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  switch (error.code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new UpstreamFailure('connect', 'upstream_connect_timeout', 'connecting to the upstream timed out');
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new UpstreamFailure('connect', 'upstream_connect_failed', `cannot connect to the upstream (${error.code})`);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new UpstreamFailure('timeout', 'upstream_timeout_first_byte', 'upstream sent no response headers in time');
    case 'UND_ERR_BODY_TIMEOUT':
      return new UpstreamFailure('timeout', 'upstream_timeout_body', 'upstream stopped sending in the middle of the body');
    case 'UND_ERR_ABORTED':
      return new UpstreamFailure('aborted', 'upstream_aborted', 'the exchange was aborted');
    default:
      return new UpstreamFailure('reset', 'upstream_connection_lost', `connection to the upstream was lost (${error.code ?? error.message})`);
  }
}
