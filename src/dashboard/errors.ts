// Errors of the dashboard: its page files could not be found. The gateway still starts and
// serves everything else; /dashboard then answers 503 `dashboard_unavailable`.

export type DashboardErrorCode = 'dashboard_assets_missing';

export class DashboardError extends Error {
  override readonly name = 'DashboardError';
  constructor(
    readonly code: DashboardErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isDashboardError(e: unknown): e is DashboardError {
  return e instanceof DashboardError;
}
