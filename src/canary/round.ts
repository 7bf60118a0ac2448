// A route's round from its probes, and the positive controls that can void a probe for the
// whole round. Transport beats everything (it freezes counters, seed 000: "传输错误不算质量
// 失败"); a voided probe decides nothing either way.
import { UNSENT_REASONS, WARDEN_FAILED_REASON, type ProbeKind, type ProbeResult, type RouteRound } from './types.js';

/** Probes that tested nothing: never sent, or Warden failed while reading the answer. */
const UNTESTED: ReadonlySet<string> = new Set([...Object.values(UNSENT_REASONS), WARDEN_FAILED_REASON]);

export function decideRound(route: string, at: number, probes: readonly ProbeResult[]): RouteRound {
  const deciding = probes.filter((p) => !p.invalidated);
  const round = (verdict: RouteRound['verdict'], reasons: string[]): RouteRound => ({ route, at, verdict, probes: [...probes], reasons });
  const transport = deciding.filter((p) => p.verdict === 'transport');
  if (transport.length > 0) return round('transport', transport.map(tag));
  const failed = deciding.filter((p) => p.verdict === 'fail');
  if (failed.length > 0) return round('fail', failed.map(tag));
  // A probe never sent (budget spent, shutdown), or one Warden failed to read, tested nothing:
  // the round cannot vouch for the route, so it must not reset a failure streak nor count
  // towards release.
  const untested = deciding.filter((p) => p.verdict === 'inconclusive' && UNTESTED.has(p.reason));
  if (untested.length > 0) return round('inconclusive', untested.map(tag));
  // A round with nothing but "cannot tell" is not clean: it must not count towards release.
  return round(deciding.some((p) => p.verdict === 'pass') ? 'pass' : 'inconclusive', []);
}

/** `prefix:unmatched_markdown`: the form reasons take in rounds, audits and alerts. */
function tag(p: ProbeResult): string {
  return `${p.kind}:${p.reason}`;
}

/** The probes a positive control is expected to fail: controls are routes known to filter. */
export const CONTROLLED_KINDS: readonly ProbeKind[] = ['filter'];

export interface ControlledResults {
  results: Map<string, ProbeResult[]>;
  invalidatedKinds: ProbeKind[];
  alerts: string[];
}

export function isControl(route: string, controls: ReadonlySet<string>): boolean {
  return controls.has(route);
}

/**
 * Seed 000: a probe that passes a route known to fail it cannot certify anyone else — it is
 * declared invalid for the round on every route (`invalidated`), and an alert names the
 * control. Controls that failed, timed out or said nothing leave the probe standing.
 */
export function applyPositiveControls(results: ReadonlyMap<string, readonly ProbeResult[]>, controls: ReadonlySet<string>): ControlledResults {
  const passedBy = new Map<ProbeKind, string[]>();
  for (const route of controls) {
    for (const r of results.get(route) ?? []) {
      if (CONTROLLED_KINDS.includes(r.kind) && r.verdict === 'pass') passedBy.set(r.kind, [...(passedBy.get(r.kind) ?? []), route]);
    }
  }
  const invalidatedKinds = CONTROLLED_KINDS.filter((kind) => passedBy.has(kind));
  const voided = new Set<ProbeKind>(invalidatedKinds);
  const out = new Map<string, ProbeResult[]>();
  for (const [route, probes] of results) out.set(route, probes.map((p) => (voided.has(p.kind) ? { ...p, invalidated: true } : p)));
  const alerts = invalidatedKinds.map((kind) => {
    const routes = passedBy.get(kind) ?? [];
    return `positive control ${routes.join(', ')} passed the ${kind} probe it is known to fail: the ${kind} probe is invalid this round and decides nothing for any route`;
  });
  return { results: out, invalidatedKinds, alerts };
}
