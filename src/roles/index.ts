// Runtime role management: the overlay on the YAML's roles, rollouts and their figures.
export { RoleRuntime, type RoleRuntimeOptions, type RoleChange, type ChangeMeta, type RolloutTarget } from './runtime.js';
export { RoleError, isRoleError, type RoleErrorCode } from './errors.js';
export { effectiveConfig, mergePatch, entryOf, roleNamed, type RoleEntry, type RoleNote, type RoleOverlay } from './overlay.js';
export { diff, type FieldChange } from './diff.js';
export { armsOf, bucketOf, chainFor, WeightedSplit, BUCKETS, type Arm } from './split.js';
export { judgeRollout, type RolloutStep, type AutoRules } from './rules.js';
export { ArmStats, type ArmFigures } from './stats.js';
export { RolloutTracker, type RolloutFigures } from './rollout.js';
export { OVERLAY_KEY, ROLLOUTS_KEY } from './persist.js';
