// Why a Store could not be had. These are raised at startup, before any request, so they
// carry no HTTP status: the CLI prints them and exits.

export type StoreErrorCode =
  /** The backing file or service cannot be opened or is not a store Warden understands. */
  | 'store_unavailable'
  /** The configured kind of store is not implemented (yet). */
  | 'store_unsupported';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

export function isStoreError(e: unknown): e is StoreError {
  return e instanceof StoreError;
}
