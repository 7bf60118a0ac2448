// OpenAI-shaped error bodies. Every error a client sees from Warden (or from the simulated
// fleet) has this shape, so the official SDKs raise their usual typed exceptions.

export type OpenAIErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'api_error'
  | 'upstream_error'
  | 'service_unavailable';

export interface OpenAIErrorBody {
  error: { message: string; type: OpenAIErrorType; code: string | null; param: string | null; [k: string]: unknown };
}

export function openAIErrorBody(
  message: string,
  type: OpenAIErrorType,
  code: string | null = null,
  param: string | null = null,
  extra?: Record<string, unknown>,
): OpenAIErrorBody {
  return { error: { message, type, code, param, ...extra } };
}

/**
 * A failure Warden answers with: a stable `code`, the HTTP status it maps to, and the
 * OpenAI error `type`. Thrown inside the gateway, turned into a response at the edge.
 */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly type: OpenAIErrorType,
    message: string,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'GatewayError';
  }

  toBody(): OpenAIErrorBody {
    return openAIErrorBody(this.message, this.type, this.code, this.param);
  }
}

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}

export const invalidRequest = (message: string, param: string | null = null) =>
  new GatewayError(400, 'invalid_request', 'invalid_request_error', message, param);
export const invalidJson = (detail: string) =>
  new GatewayError(400, 'invalid_json', 'invalid_request_error', `Request body is not valid JSON: ${detail}`);
export const bodyTooLarge = (limit: number) =>
  new GatewayError(413, 'body_too_large', 'invalid_request_error', `Request body is larger than the limit of ${limit} bytes`);
export const modelNotFound = (model: string) =>
  new GatewayError(404, 'model_not_found', 'invalid_request_error', `The model or role "${model}" does not exist`, 'model');
export const unauthorized = (message: string) =>
  new GatewayError(401, 'invalid_api_key', 'authentication_error', message);
export const notFound = (path: string) =>
  new GatewayError(404, 'not_found', 'not_found_error', `No route for ${path}`);
export const methodNotAllowed = (method: string, path: string) =>
  new GatewayError(405, 'method_not_allowed', 'invalid_request_error', `Method ${method} is not allowed on ${path}`);
/** Warden itself failed; what went wrong is in the gateway log, never in the answer. */
export const internalError = () =>
  new GatewayError(500, 'internal_error', 'api_error', 'Warden failed to handle this request; see the gateway log');
/** Nothing could answer in time: a strict role, a spent chain. */
export const roleUnavailable = (message: string, retryAfterSeconds: number) =>
  new GatewayError(503, 'role_unavailable', 'service_unavailable', message, null, { 'retry-after': String(retryAfterSeconds) });
/** A model or route id the client named directly is out of service (no role was involved). */
export const routeUnavailable = (message: string, retryAfterSeconds: number) =>
  new GatewayError(503, 'route_unavailable', 'service_unavailable', message, 'model', { 'retry-after': String(retryAfterSeconds) });

/** The message of an error as upstreams write it (`"text"`, `{message}`, `{error: {message}}`), capped; null when there is none. */
export function errorMessageOf(value: unknown): string | null {
  if (typeof value === 'string') return value.slice(0, 300);
  if (value === null || typeof value !== 'object') return null;
  const { error, message } = value as { error?: unknown; message?: unknown };
  const nested = error === undefined ? null : errorMessageOf(error);
  return nested ?? (typeof message === 'string' ? message.slice(0, 300) : null);
}
