// Errors of the caller, not of the reply: a bad reply is a verdict, never an exception.

export type QualityErrorCode = 'unknown_check' | 'invalid_schema' | 'language_model_unavailable';

export class QualityError extends Error {
  override readonly name = 'QualityError';
  constructor(
    readonly code: QualityErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isQualityError(e: unknown): e is QualityError {
  return e instanceof QualityError;
}
