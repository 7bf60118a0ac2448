// The role layer at run time: the YAML's roles (the base) with the operator's overlay on top,
// validated as one config, persisted in the Store, and applied to the router and the quality
// gates at once. Every change is audited with who, what (a diff) and why (a reason); another
// instance's change arrives through the Store and is rebuilt here without a second audit.
import type { Catalog } from '../catalog/index.js';
import type { RoleConfig, WardenConfig } from '../config/index.js';
import { warmUp as warmUpQuality } from '../quality/index.js';
import { Router } from '../routing/index.js';
import { QualityGate } from '../routing/gate.js';
import type { Store } from '../state/index.js';
import type { Audit, Logger } from '../telemetry/index.js';
import { diff, type FieldChange } from './diff.js';
import { RoleError } from './errors.js';
import { assertRoleName, EMPTY_OVERLAY, effectiveConfig, entryOf, mergePatch, roleNamed, withEntry, type RoleEntry, type RoleNote, type RoleOverlay } from './overlay.js';
import { isRoleLayerKey, loadOverlay, loadRollouts, saveRoleLayer, type Rollouts } from './persist.js';
import { RolloutTracker, type RolloutFigures } from './rollout.js';
import type { RolloutStep } from './rules.js';
import { armsOf, chainFor } from './split.js';

export interface RoleRuntimeOptions {
  base: WardenConfig;
  catalog: Catalog;
  store: Store;
  audit: Audit;
  log: Logger;
  now: () => number;
  /** The draw for requests without a sticky key (tests seed it). */
  random?: () => number;
}

export interface RoleChange {
  role: string;
  /** The role as it now serves; null when it no longer exists. */
  effective: RoleConfig | null;
  diff: FieldChange[];
}

/** Who and why, and for automatic steps the figures and the rule that decided. */
export interface ChangeMeta {
  by: string;
  reason: string;
  detail?: Record<string, unknown>;
}

export type RolloutTarget = { weight: number } | { weights: Record<string, number> };

export class RoleRuntime {
  readonly router: Router;
  #base: WardenConfig;
  #effective: WardenConfig;
  #overlay: RoleOverlay = EMPTY_OVERLAY;
  #rollouts: Rollouts = {};
  /** Why the stored overlay is not served (it no longer fits the YAML), or null. */
  #rejected: RoleError | null = null;
  #gates = new Map<string, QualityGate>();
  readonly #tracker: RolloutTracker;

  constructor(private readonly o: RoleRuntimeOptions) {
    this.#base = this.#effective = o.base;
    this.#tracker = new RolloutTracker({ now: o.now, random: o.random, onStep: (role, step, figures) => this.#autoStep(role, step, figures) });
    this.router = new Router(o.base, o.catalog, this.#tracker.splitFor);
    this.#apply(o.base);
  }

  get base(): WardenConfig {
    return this.#base;
  }
  get effective(): WardenConfig {
    return this.#effective;
  }

  /** The request path's gate lookup: one Map read. */
  gateFor(role: string): QualityGate | null {
    return this.#gates.get(role) ?? null;
  }

  /** Applies the overlay the Store holds (at start); one that no longer fits the YAML is set aside, audited. */
  start(): void {
    this.#load();
    this.#rebuild('start');
  }

  /** A new YAML base (hot reload): the overlay is validated against it again. */
  setBase(next: WardenConfig): void {
    this.#base = next;
    this.#rebuild('reload');
  }

  /** A setting another instance changed (a Store notice). */
  sync(key: string): void {
    if (!isRoleLayerKey(key)) return;
    this.#load();
    this.#rebuild('sync');
  }

  /** PUT: the role as given replaces the base role of that name (or adds a role). */
  replace(name: string, entry: RoleEntry, meta: ChangeMeta): RoleChange {
    assertRoleName(name);
    return this.#write(name, entry, 'role_changed', meta);
  }

  /** PATCH: a JSON merge patch over the role as it serves now. */
  patch(name: string, patch: RoleEntry, meta: ChangeMeta): RoleChange {
    assertRoleName(name);
    return this.#write(name, mergePatch(entryOf(this.#role(name)), patch) as RoleEntry, 'role_changed', meta);
  }

  /** Drops the overlay (or one role's entry): the YAML serves again. */
  drop(meta: ChangeMeta, only?: string): { dropped: string[]; diff: Record<string, FieldChange[]> } {
    const names = only === undefined ? Object.keys(this.#overlay.roles) : Object.hasOwn(this.#overlay.roles, only) ? [only] : [];
    if (names.length === 0) return { dropped: [], diff: {} };
    let overlay = this.#overlay;
    const rollouts = { ...this.#rollouts };
    for (const name of names) {
      overlay = withEntry(overlay, name, null, this.#note(meta));
      delete rollouts[name];
    }
    const effective = effectiveConfig(this.#base, overlay.roles);
    const changes = Object.fromEntries(names.map((n) => [n, this.#diff(n, effective)]));
    this.#commit(overlay, rollouts, effective);
    this.o.audit.record('role_overlay_dropped', null, { roles: names, by: meta.by, reason: meta.reason, diff: changes });
    return { dropped: names, diff: changes };
  }

  /** Starts a rollout on a role: its primary traffic split as `rollout` says. */
  startRollout(name: string, rollout: Record<string, unknown>, meta: ChangeMeta): RoleChange {
    if (this.#role(name).rollout) throw new RoleError('rollout_active', `role "${name}" is already in rollout: advance it or roll it back first`);
    return this.#write(name, { ...entryOf(this.#role(name)), rollout }, 'rollout_started', meta);
  }

  /** Moves a rollout to a new weight; all the traffic on one model promotes it and ends the rollout. */
  advance(name: string, target: RolloutTarget, meta: ChangeMeta): RoleChange {
    const role = this.#rolloutRole(name);
    meta = this.#withFigures(name, meta);
    const entry = entryOf(role);
    const rollout = entry.rollout as Record<string, unknown>;
    const next = 'weight' in target ? { ...rollout, weight: target.weight } : { ...rollout, weights: target.weights };
    const winner = soleModel(next);
    if (winner === null) return this.#write(name, { ...entry, rollout: next }, 'rollout_advanced', meta);
    // Promotion: the winner leads the chain, the old primary becomes its first fallback.
    const { rollout: _, ...rest } = entry;
    return this.#write(name, { ...rest, models: chainFor(role.models, winner) }, 'rollout_promoted', meta);
  }

  /** Ends a rollout and restores the role exactly as it was before the rollout began. */
  rollback(name: string, meta: ChangeMeta): RoleChange {
    const role = this.#rolloutRole(name);
    meta = this.#withFigures(name, meta);
    const origin = roleNamed(this.#rollouts, name);
    if (origin) return this.#write(name, origin.previous, 'rollout_rolled_back', meta);
    // A rollout written in the YAML (or whose origin was lost): the role without it.
    const { rollout: _, ...rest } = entryOf(role);
    return this.#write(name, rest, 'rollout_rolled_back', meta);
  }

  /** The figures of a role's rollout, side by side, with what it started from. */
  rollout(name: string): { role: string; rollout: RoleConfig['rollout']; models: string[]; figures: RolloutFigures | null; origin: Rollouts[string] | null } {
    const role = this.#rolloutRole(name);
    return { role: name, rollout: role.rollout, models: role.models, figures: this.#tracker.figures(name), origin: roleNamed(this.#rollouts, name) ?? null };
  }

  /** GET /admin/roles: what serves, the YAML's roles and the overlay, shown apart. */
  view() {
    return {
      roles: this.#effective.roles,
      base: this.#base.roles,
      overlay: {
        roles: this.#overlay.roles,
        changes: this.#overlay.changes,
        updatedAt: this.#overlay.updatedAt,
        updatedBy: this.#overlay.updatedBy,
        active: this.#rejected === null,
        rejected: this.#rejected && { message: this.#rejected.message, issues: issuesOf(this.#rejected) },
      },
      rollouts: this.#rollouts,
    };
  }

  #role(name: string): RoleConfig {
    const role = roleNamed(this.#effective.roles, name);
    if (!role) throw new RoleError('unknown_role', `role "${name}" does not exist`, 'name');
    return role;
  }

  #rolloutRole(name: string): RoleConfig & { rollout: NonNullable<RoleConfig['rollout']> } {
    const role = this.#role(name);
    if (!role.rollout) throw new RoleError('no_rollout', `role "${name}" has no rollout`);
    return role as RoleConfig & { rollout: NonNullable<RoleConfig['rollout']> };
  }

  /** An operator's step is audited with the figures it was taken on, as an automatic one is. */
  #withFigures(name: string, meta: ChangeMeta): ChangeMeta {
    return meta.detail ? meta : { ...meta, detail: { figures: this.#tracker.figures(name) } };
  }

  #write(name: string, entry: RoleEntry | null, type: string, meta: ChangeMeta): RoleChange {
    const before = roleNamed(this.#effective.roles, name);
    const overlay = withEntry(this.#overlay, name, entry, this.#note(meta));
    const effective = effectiveConfig(this.#base, overlay.roles);
    const after = roleNamed(effective.roles, name);
    let rollouts = this.#rollouts;
    if (after?.rollout && !before?.rollout) {
      rollouts = { ...rollouts, [name]: { previous: roleNamed(this.#overlay.roles, name) ?? null, startedAt: this.o.now(), startedBy: meta.by, reason: meta.reason } };
    } else if (!after?.rollout && Object.hasOwn(rollouts, name)) {
      rollouts = Object.fromEntries(Object.entries(rollouts).filter(([role]) => role !== name));
    }
    const changes = this.#diff(name, effective);
    this.#commit(overlay, rollouts, effective);
    this.o.audit.record(type, null, { role: name, by: meta.by, reason: meta.reason, diff: changes, ...meta.detail });
    return { role: name, effective: after ?? null, diff: changes };
  }

  #note(meta: ChangeMeta): RoleNote {
    return { at: this.o.now(), by: meta.by, reason: meta.reason };
  }

  #diff(name: string, next: WardenConfig): FieldChange[] {
    const before = roleNamed(this.#effective.roles, name);
    const after = roleNamed(next.roles, name);
    return diff(before && entryOf(before), after && entryOf(after));
  }

  #commit(overlay: RoleOverlay, rollouts: Rollouts, effective: WardenConfig): void {
    saveRoleLayer(this.o.store, overlay, rollouts);
    this.#overlay = overlay;
    this.#rollouts = rollouts;
    this.#rejected = null;
    this.#apply(effective);
  }

  #load(): void {
    this.#overlay = loadOverlay(this.o.store);
    this.#rollouts = loadRollouts(this.o.store);
  }

  #rebuild(trigger: 'start' | 'reload' | 'sync'): void {
    let effective = this.#base;
    this.#rejected = null;
    try {
      effective = effectiveConfig(this.#base, this.#overlay.roles);
    } catch (e) {
      if (!(e instanceof RoleError)) throw e;
      this.#rejected = e;
      const detail = { trigger, roles: Object.keys(this.#overlay.roles), issues: issuesOf(e) };
      // Another instance's change that does not fit this instance's YAML: its writer audited the change itself.
      if (trigger === 'sync') this.o.log.warn(detail, 'role overlay from another instance does not fit this config; serving the YAML roles');
      else this.o.audit.record('role_overlay_rejected', null, { ...detail, serving: 'the YAML roles' }, 'warn');
    }
    this.#apply(effective);
  }

  #apply(effective: WardenConfig): void {
    this.#effective = effective;
    this.router.update(effective);
    const gates = new Map<string, QualityGate>();
    for (const [name, role] of Object.entries(effective.roles)) {
      if (role.checks.length === 0) continue;
      const gate = new QualityGate(name, role);
      if (gate.schemaProblem) this.o.log.error({ role: name, problem: gate.schemaProblem }, 'role schema not applied: the schema check asks for JSON alone');
      gates.set(name, gate);
    }
    this.#gates = gates;
    // The language data loads once (~0.5 s); a role that gains the check must not pay it on a request.
    if (Object.values(effective.roles).some((r) => r.checks.includes('language'))) warmUpQuality();
  }

  #autoStep(name: string, step: Exclude<RolloutStep, { action: 'hold' }>, figures: RolloutFigures): void {
    const role = roleNamed(this.#effective.roles, name);
    // Decided on weights that have changed since (an operator acted first): nothing to do.
    if (!role?.rollout || armsOf(role.models, role.rollout)[0]!.weight !== figures.arms[0]?.weight) return;
    const meta = { by: 'auto', reason: step.why, detail: { automatic: true, rule: role.rollout.auto, figures } };
    try {
      if (step.action === 'advance') this.advance(name, { weight: step.to }, meta);
      else this.rollback(name, meta);
    } catch (e) {
      this.o.log.error({ err: e, role: name, step: step.action }, 'automatic rollout step failed');
    }
  }
}

/** The one model that takes all the traffic under `rollout`, or null while it is still split. */
function soleModel(rollout: Record<string, unknown>): string | null {
  if (typeof rollout.candidate === 'string' && typeof rollout.weight === 'number') {
    if (rollout.weight >= 100) return rollout.candidate;
    return null;
  }
  const weights = Object.entries((rollout.weights ?? {}) as Record<string, number>).filter(([, w]) => w > 0);
  return weights.length === 1 ? weights[0]![0] : null;
}

const issuesOf = (e: RoleError) => e.issues.map((i) => ({ path: i.path, message: i.message }));
