// Errors of the canary's caller (a language with no probe prompt, a policy that cannot work):
// a bad route is a verdict, never an exception.

/**
 * `stopped`: a round asked for after the gateway began shutting down; `round_in_progress`: a
 * round asked for while another runs (on this instance or another one).
 */
export type CanaryErrorCode = 'unknown_route' | 'unknown_probe_language' | 'language_not_configured' | 'no_languages' | 'invalid_policy' | 'stopped' | 'round_in_progress';

export class CanaryError extends Error {
  override readonly name = 'CanaryError';
  constructor(
    readonly code: CanaryErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isCanaryError(e: unknown): e is CanaryError {
  return e instanceof CanaryError;
}
