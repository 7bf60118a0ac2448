// A rollout's weighted split of a role's primary traffic. A caller's sticky key hashes to a
// fixed bucket (of 10,000), so the same key always lands on the same arm; without a key, one
// random draw. The candidate's range comes first, so raising its weight only moves callers
// from the incumbent to the candidate, never back.
import type { RolloutConfig } from '../config/index.js';
import type { Plan, PlanSplit } from '../routing/index.js';

export const BUCKETS = 10_000;

export interface Arm {
  model: string;
  /** Share of the primary traffic in percent (the arms add up to 100). */
  weight: number;
}

/** The arms of a rollout, candidate first: `candidate` + `weight`, or `weights` normalised to 100. */
export function armsOf(models: readonly string[], rollout: RolloutConfig): Arm[] {
  if (rollout.candidate !== undefined) {
    const weight = rollout.weight ?? 0;
    return [
      { model: rollout.candidate, weight },
      { model: models[0]!, weight: 100 - weight },
    ];
  }
  const entries = Object.entries(rollout.weights ?? {});
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  return entries.map(([model, w]) => ({ model, weight: (w / total) * 100 }));
}

/** An arm's chain: its model first, then the role's chain without it (a failing candidate falls back to the incumbent). */
export function chainFor(models: readonly string[], first: string): string[] {
  return [first, ...models.filter((m) => m !== first)];
}

/** A stable bucket for a caller's key; the role is mixed in so each role's split is drawn apart. */
export function bucketOf(role: string, key: string): number {
  // FNV-1a over the UTF-16 units, then murmur3's finaliser so near keys spread evenly.
  let h = 0x811c9dc5;
  for (let i = 0; i < role.length; i++) h = Math.imul(h ^ role.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ 0, 0x01000193);
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % BUCKETS;
}

export class WeightedSplit implements PlanSplit {
  /** Upper bucket bound of each arm, cumulative; the last is BUCKETS. */
  readonly #bounds: number[];

  constructor(
    private readonly role: string,
    arms: readonly Arm[],
    private readonly plans: readonly Plan[],
    private readonly random: () => number = Math.random,
  ) {
    let sum = 0;
    this.#bounds = arms.map((arm, i) => (i === arms.length - 1 ? BUCKETS : Math.round(((sum += arm.weight) / 100) * BUCKETS)));
  }

  choose(sticky: string | undefined): Plan {
    const bucket = sticky === undefined || sticky === '' ? Math.floor(this.random() * BUCKETS) : bucketOf(this.role, sticky);
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length - 1; i++) if (bucket < bounds[i]!) return this.plans[i]!;
    return this.plans[bounds.length - 1]!;
  }
}

