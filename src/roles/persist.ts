// Where the role layer lives in the Store: the overlay in one setting, the rollouts' memory
// (what each one replaced, for an exact rollback) in another. A shared store reports either
// key changing on another instance, which then rebuilds from both.
import type { Store } from '../state/index.js';
import { isPlainObject } from '../protocol/body.js';
import { readOverlay, type RoleEntry, type RoleOverlay } from './overlay.js';

export const OVERLAY_KEY = 'roles.overlay';
export const ROLLOUTS_KEY = 'roles.rollouts';

/** What a rollout started from: the overlay entry it replaced (null: the role was the YAML's). */
export interface RolloutOrigin {
  previous: RoleEntry | null;
  startedAt: number;
  startedBy: string;
  reason: string;
}

export type Rollouts = Readonly<Record<string, RolloutOrigin>>;

export function loadOverlay(store: Store): RoleOverlay {
  return readOverlay(store.getSetting(OVERLAY_KEY));
}

export function loadRollouts(store: Store): Rollouts {
  const value = store.getSetting(ROLLOUTS_KEY);
  if (!isPlainObject(value)) return {};
  const out: Record<string, RolloutOrigin> = {};
  for (const [role, origin] of Object.entries(value)) {
    if (!isPlainObject(origin)) continue;
    out[role] = {
      previous: isPlainObject(origin.previous) ? origin.previous : null,
      startedAt: typeof origin.startedAt === 'number' ? origin.startedAt : 0,
      startedBy: typeof origin.startedBy === 'string' ? origin.startedBy : 'unknown',
      reason: typeof origin.reason === 'string' ? origin.reason : '',
    };
  }
  return out;
}

/** Writes both documents; an empty one is deleted rather than stored empty. */
export function saveRoleLayer(store: Store, overlay: RoleOverlay, rollouts: Rollouts): void {
  if (Object.keys(overlay.roles).length === 0) store.deleteSetting(OVERLAY_KEY);
  else store.putSetting(OVERLAY_KEY, overlay);
  if (Object.keys(rollouts).length === 0) store.deleteSetting(ROLLOUTS_KEY);
  else store.putSetting(ROLLOUTS_KEY, rollouts);
}

export const isRoleLayerKey = (key: string) => key === OVERLAY_KEY || key === ROLLOUTS_KEY;
