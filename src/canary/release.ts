// The end of a canary quarantine: its early release, its expiry, or an operator's release.
// An operator's release needs only the Store (where the quarantine is kept) and the route's
// quarantine layer, not a running canary: a quarantine stored while a canary ran must stay
// releasable after the canary section is removed from the config.
import type { Clock } from '../clock/index.js';
import type { RouteControl } from '../health/index.js';
import type { Store } from '../state/index.js';
import type { Audit, Notifier } from '../telemetry/index.js';
import { escalatingLadder, type QuarantineLadder } from './ladder.js';

export interface QuarantineEndDeps {
  store: Store;
  clock: Clock;
  audit: Audit;
  notifier: Notifier | null;
  /** Null when ending it must not change routing (the `warden canary` command). */
  control: RouteControl | null;
  ladder?: QuarantineLadder;
}

/** The route serves again: out of the quarantine layer, audited and notified. */
export function backInService(route: string, type: 'release_early' | 'expired' | 'released', detail: Record<string, unknown>, d: QuarantineEndDeps): void {
  d.control?.clearQuarantine(route);
  d.audit.record(type, route, detail, 'info');
  d.notifier?.notify({ type, route, at: d.clock.now(), summary: `${route} back in service (${type.replace('_', ' ')})`, detail });
}

/** An operator's release of a route's quarantine (or observe mode's would-be one); false when it had none. */
export function releaseQuarantine(route: string, by: string, d: QuarantineEndDeps): boolean {
  const state = d.store.getCanaryState(route);
  if (!state) return false;
  const outcome = (d.ladder ?? escalatingLadder).release(state, d.clock.now(), by);
  if (outcome.decisions.length === 0) return false;
  d.store.putCanaryState(route, outcome.state);
  for (const decision of outcome.decisions) if (decision.type === 'released') backInService(route, decision.type, { ...decision }, d);
  return true;
}
