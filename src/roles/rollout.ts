// Roles in rollout: builds each one's split for the router, keeps its arms' figures (for as
// long as its arms and weights stay the same), and asks for an automatic step when the rules
// say so. Figures are this instance's: each instance counts what it served.
import type { RoleConfig } from '../config/index.js';
import type { Plan, SplitFactory } from '../routing/index.js';
import { judgeRollout, type RolloutStep } from './rules.js';
import { armsOf, chainFor, WeightedSplit, type Arm } from './split.js';
import { ArmStats, type ArmFigures } from './stats.js';

export interface RolloutFigures {
  role: string;
  /** When these arms and weights took effect here (epoch ms): figures count from then. */
  since: number;
  arms: ArmFigures[];
}

export interface RolloutTrackerOptions {
  now: () => number;
  /** An automatic step the rules decided, with the figures that decided it. */
  onStep(role: string, step: Exclude<RolloutStep, { action: 'hold' }>, figures: RolloutFigures): void;
  random?: () => number;
}

interface Tracked {
  signature: string;
  /** The role as last built (its automatic rules may change without its weights). */
  config: RoleConfig;
  since: number;
  arms: ArmStats[];
  /** A step was asked for at these weights: no second one until they change. */
  decided: boolean;
}

export class RolloutTracker {
  readonly #roles = new Map<string, Tracked>();

  constructor(private readonly o: RolloutTrackerOptions) {}

  /** For the Router: the split of a role with a rollout, its arms' plans observed. */
  readonly splitFor: SplitFactory = (role, config, planOf) => {
    if (!config.rollout) {
      this.#roles.delete(role);
      return null;
    }
    const arms = armsOf(config.models, config.rollout);
    const tracked = this.#track(role, config, arms);
    const plans: Plan[] = arms.map((arm, i) => ({ ...planOf(chainFor(config.models, arm.model)), observer: tracked.arms[i]! }));
    return new WeightedSplit(role, arms, plans, this.o.random);
  };

  figures(role: string): RolloutFigures | null {
    const tracked = this.#roles.get(role);
    return tracked ? { role, since: tracked.since, arms: tracked.arms.map((a) => a.figures()) } : null;
  }

  /** Keeps a role's figures while its arms and weights are unchanged (the router is rebuilt on any role change). */
  #track(role: string, config: RoleConfig, arms: Arm[]): Tracked {
    const signature = arms.map((a) => `${a.model}=${a.weight}`).join(',');
    const known = this.#roles.get(role);
    if (known?.signature === signature) {
      known.config = config;
      return known;
    }
    const tracked: Tracked = { signature, config, since: this.o.now(), arms: [], decided: false };
    // The candidate (first arm) checks the rules after each of its requests.
    const check = () => this.#check(role, tracked);
    tracked.arms = arms.map((arm, i) => new ArmStats(arm.model, arm.weight, i === 0 ? check : null));
    this.#roles.set(role, tracked);
    return tracked;
  }

  #check(role: string, tracked: Tracked): void {
    const [candidate, incumbent] = tracked.arms as [ArmStats, ArmStats];
    const auto = tracked.config.rollout?.auto;
    if (!auto || tracked.decided || candidate.requests < auto.after || !incumbent) return;
    const step = judgeRollout(candidate.figures(), incumbent.figures(), candidate.weight, auto);
    if (step.action === 'hold') return;
    tracked.decided = true;
    // Acted on after the request that tipped it has finished, not inside its accounting.
    const figures = { role, since: tracked.since, arms: tracked.arms.map((a) => a.figures()) };
    queueMicrotask(() => this.o.onStep(role, step, figures));
  }
}
