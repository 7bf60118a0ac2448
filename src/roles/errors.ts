// Why a role change was refused. Each kind has a stable code and the HTTP status the admin
// API answers with; `param` names the field at fault, as a path into the config.
import type { ConfigIssue } from '../config/index.js';

export type RoleErrorCode = 'invalid_role' | 'unknown_role' | 'no_rollout' | 'rollout_active';

const STATUS: Record<RoleErrorCode, number> = {
  invalid_role: 400,
  unknown_role: 404,
  no_rollout: 409,
  rollout_active: 409,
};

export class RoleError extends Error {
  readonly status: number;
  constructor(
    readonly code: RoleErrorCode,
    message: string,
    readonly param: string | null = null,
    readonly issues: readonly ConfigIssue[] = [],
  ) {
    super(message);
    this.name = 'RoleError';
    this.status = STATUS[code];
  }
}

export function isRoleError(e: unknown): e is RoleError {
  return e instanceof RoleError;
}
