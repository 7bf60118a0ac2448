export { loadConfig, parseConfig } from './load.js';
export { ConfigError, isConfigError, formatIssue, type ConfigIssue } from './errors.js';
export { Secret } from './secret.js';
export { parseDuration } from './duration.js';
export { interpolate, type Environment } from './env.js';
export {
  configSchema,
  defaultCanaryConfig,
  TIERS,
  type WardenConfig,
  type ProviderConfig,
  type ModelConfig,
  type RoleConfig,
  type TimeoutConfig,
  type BreakerConfig,
  type CanaryConfig,
  type NotifyConfig,
  type ThinkingMode,
  STRUCTURED_ROLE_NAMES,
} from './schema.js';
