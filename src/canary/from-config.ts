// The canary policy as the config writes it (durations already in ms).
import type { CanaryConfig } from '../config/index.js';
import { canaryPolicy } from './policy.js';
import type { CanaryPolicy } from './types.js';

export function policyFromConfig(c: CanaryConfig): CanaryPolicy {
  return canaryPolicy({
    mode: c.mode,
    firstTokenLimitMs: c.firstTokenLimit,
    failedRoundsToQuarantine: c.failedRounds,
    cleanRoundsToRelease: c.cleanRounds,
    ladder: c.ladder,
    forgiveAfter: c.forgiveAfter,
    capacityFloor: c.capacityFloor,
    languages: c.languages,
  });
}
