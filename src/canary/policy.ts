// The canary's rules with the seeds' numbers as defaults, and a factory that fills in the
// rest and refuses a policy the ladder could not run.
import { CanaryError } from './errors.js';
import type { CanaryPolicy } from './types.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Seed 000: first token within 10 s; 2 failed rounds quarantine, 2 clean rounds release; 1 d, 3 d, 7 d; forgiven after 14 d; never below 2 routes. */
export const DEFAULT_CANARY_POLICY: Readonly<CanaryPolicy> = Object.freeze({
  // Observe first: seed 000 measures the false-positive rate before anything is removed.
  mode: 'observe',
  firstTokenLimitMs: 10_000,
  failedRoundsToQuarantine: 2,
  cleanRoundsToRelease: 2,
  ladder: [1 * DAY, 3 * DAY, 7 * DAY],
  forgiveAfter: 14 * DAY,
  capacityFloor: 2,
  languages: ['en'],
});

/** A policy from the defaults and the given fields; throws `invalid_policy` on one that cannot work. */
export function canaryPolicy(options: Partial<CanaryPolicy> = {}): CanaryPolicy {
  const policy: CanaryPolicy = { ...DEFAULT_CANARY_POLICY, ...options };
  policy.ladder = [...policy.ladder];
  policy.languages = [...policy.languages];
  if (policy.ladder.length === 0 || policy.ladder.some((ms) => !(ms > 0))) {
    throw new CanaryError('invalid_policy', 'canary ladder needs at least one positive duration');
  }
  for (const key of ['failedRoundsToQuarantine', 'cleanRoundsToRelease'] as const) {
    if (!Number.isInteger(policy[key]) || policy[key] < 1) throw new CanaryError('invalid_policy', `canary ${key} must be a whole number ≥ 1`);
  }
  if (!(policy.firstTokenLimitMs > 0)) throw new CanaryError('invalid_policy', 'canary firstTokenLimitMs must be positive');
  if (!(policy.forgiveAfter >= 0) || !(policy.capacityFloor >= 0)) throw new CanaryError('invalid_policy', 'canary forgiveAfter and capacityFloor must not be negative');
  return policy;
}
