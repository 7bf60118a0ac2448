export { loadConfig, parseConfig, validateConfig } from './load.js';
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
  type RolloutConfig,
  STRUCTURED_ROLE_NAMES,
  nameProblem,
} from './schema.js';
export { breakersChanged, changedSections, credentialsChanged, receiveLimitsChanged, reloadable, timeoutsChanged, HOT_SECTIONS, RESTART_SECTIONS, type HotPart, type Section, type SectionChanges } from './sections.js';
export { configDigest, watchConfig, type ConfigWatch, type ConfigWatchOptions, type ReloadTrigger } from './reload.js';
