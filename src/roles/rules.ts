// The automatic rules of a rollout: once the candidate has served `after` requests at its
// current weight, it advances to the next step while its fallback and quality-failure rates
// stay within `bound` of the incumbent's, and is rolled back when either exceeds it.
import type { RolloutConfig } from '../config/index.js';
import type { ArmFigures } from './stats.js';

export type AutoRules = NonNullable<RolloutConfig['auto']>;

export type RolloutStep =
  | { action: 'hold' }
  | { action: 'advance'; to: number; why: string }
  | { action: 'rollback'; why: string };

export function judgeRollout(candidate: ArmFigures, incumbent: ArmFigures, weight: number, rules: AutoRules): RolloutStep {
  if (candidate.requests < rules.after) return { action: 'hold' };
  const over = (label: string, c: number, i: number) =>
    c > i + rules.bound
      ? `${label} ${pct(c)} on ${candidate.model} vs ${pct(i)} on ${incumbent.model} (${candidate.requests} vs ${incumbent.requests} requests) exceeds the bound of ${pct(rules.bound)}`
      : null;
  const exceeded = [over('fallback rate', candidate.fallbackRate, incumbent.fallbackRate), over('quality failure rate', candidate.qualityFailureRate, incumbent.qualityFailureRate)].filter((w) => w !== null);
  if (exceeded.length > 0) return { action: 'rollback', why: exceeded.join('; ') };
  const to = rules.steps.find((s) => s > weight) ?? 100;
  return {
    action: 'advance',
    to,
    why: `over ${candidate.requests} requests ${candidate.model}'s fallback rate ${pct(candidate.fallbackRate)} and quality failure rate ${pct(candidate.qualityFailureRate)} stay within ${pct(rules.bound)} of ${incumbent.model}'s (${pct(incumbent.fallbackRate)}, ${pct(incumbent.qualityFailureRate)})`,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
