// The thinking policy of a role: structured and pre-processing roles never think, whatever
// the config says, so no reasoning text can reach a parsed result or a search query.
import { STRUCTURED_ROLE_NAMES, type RoleConfig, type ThinkingMode } from '../config/index.js';

export function isStructuredRole(name: string, role: RoleConfig): boolean {
  if (role.structured !== undefined) return role.structured;
  return (STRUCTURED_ROLE_NAMES as readonly string[]).includes(name) || role.checks.includes('schema');
}

export function effectiveThinking(name: string, role: RoleConfig): ThinkingMode {
  return isStructuredRole(name, role) ? 'off' : role.thinking;
}
