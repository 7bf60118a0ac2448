// The Roles panel's data: each role as it serves now, whether the YAML or the runtime overlay
// holds it (and who changed it, when, why), and a rollout's split with its figures per model
// side by side, so an operator compares the arms before moving the weight.
import type { RoleConfig } from '../config/index.js';
import { armsOf, ArmStats, type ArmFigures, type RoleNote, type RoleRuntime } from '../roles/index.js';
import type { Tier } from './counterfactuals.js';

/** What the panel reads of the role layer (RoleRuntime in the gateway). */
export type RoleSource = Pick<RoleRuntime, 'view' | 'rollout' | 'effective'>;

export interface DashboardRollout {
  /** The candidate of the `candidate` + `weight` form; null for a `weights` map. */
  candidate: string | null;
  /** Candidate first, each with its weight and figures since `since`. */
  arms: ArmFigures[];
  /** When these weights took effect on this instance (figures count from then); null before. */
  since: number | null;
  auto: NonNullable<RoleConfig['rollout']>['auto'] | null;
  /** Who started it, when and why; null for a rollout written in the YAML. */
  started: RoleNote | null;
}

export interface DashboardRole {
  name: string;
  tier: Tier;
  /** The chain as it serves (the rollout's incumbent first). */
  models: string[];
  checks: string[];
  thinking: RoleConfig['thinking'];
  escalation: string | null;
  /** `overlay` when an overlay entry serves (replacing the YAML role of its name, or added). */
  source: 'yaml' | 'overlay';
  /** In the overlay with no YAML role of its name. */
  added: boolean;
  /** The YAML's chain when the overlay serves another one. */
  yamlModels: string[] | null;
  /** The overlay entry's last change; null for a YAML role (or an entry stored before changes were kept). */
  change: RoleNote | null;
  rollout: DashboardRollout | null;
}

export interface DashboardRoles {
  roles: DashboardRole[];
  /** The configured models, for the page's chain and candidate inputs (the server validates). */
  models: string[];
  overlay: {
    updatedAt: number | null;
    updatedBy: string | null;
    /** Why the stored overlay is not served (it no longer fits the YAML); null when it is. */
    rejected: string | null;
  };
}

export function dashboardRoles(source: RoleSource): DashboardRoles {
  const view = source.view();
  const active = view.overlay.active;
  const roles = Object.entries(view.roles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, role]): DashboardRole => {
      const base = view.base[name];
      const fromOverlay = active && name in view.overlay.roles;
      return {
        name,
        tier: role.tier,
        models: [...role.models],
        checks: [...role.checks],
        thinking: role.thinking,
        escalation: role.escalation?.model ?? null,
        source: fromOverlay ? 'overlay' : 'yaml',
        added: fromOverlay && base === undefined,
        yamlModels: fromOverlay && base && base.models.join('\n') !== role.models.join('\n') ? [...base.models] : null,
        change: fromOverlay ? (view.overlay.changes[name] ?? null) : null,
        rollout: role.rollout ? rolloutOf(source, name, role) : null,
      };
    });
  return {
    roles,
    models: Object.keys(source.effective.models).sort(),
    overlay: { updatedAt: view.overlay.updatedAt, updatedBy: view.overlay.updatedBy, rejected: view.overlay.rejected?.message ?? null },
  };
}

/** The tier of every role serving now: the counterfactual numbers follow runtime changes. */
export function tiersOf(roles: DashboardRoles): Record<string, Tier> {
  return Object.fromEntries(roles.roles.map((r) => [r.name, r.tier]));
}

function rolloutOf(source: RoleSource, name: string, role: RoleConfig): DashboardRollout {
  const { figures, origin } = source.rollout(name);
  // The router builds every split eagerly; before it has, the arms show with no figures.
  const arms = figures?.arms ?? armsOf(role.models, role.rollout!).map((arm) => new ArmStats(arm.model, arm.weight).figures());
  return {
    candidate: role.rollout!.candidate ?? null,
    arms,
    since: figures?.since ?? null,
    auto: role.rollout!.auto ?? null,
    started: origin && { at: origin.startedAt, by: origin.startedBy, reason: origin.reason },
  };
}
