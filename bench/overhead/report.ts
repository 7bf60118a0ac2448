// Turns raw measurements into what the issue asks: latency added over direct, Warden against
// the minimal proxy measured in the same run, each check PASS or MISS against its target.
// Checks are paired: each figure is computed within one round, where the targets ran a minute
// apart (load) or in consecutive turns of 20 streams (first token), and the median over rounds
// is judged. This VM's speed drifts by tens of
// percent between rounds, so a ratio of two medians taken from different rounds mixes that
// drift into the comparison; a ratio within a round does not.
import type { LoadResult, LoadRun } from './load.js';
import type { SequentialResult, TargetResult } from './measure.js';
import { median } from './percentiles.js';

export interface Check {
  name: string;
  value: number | null;
  /** `min`: the value must be at least the target; `max`: at most. */
  kind: 'min' | 'max';
  target: number;
  verdict: 'PASS' | 'MISS' | 'n/a';
  note?: string;
  /** The figure in each round, when the check is the median of per-round figures. */
  perRound?: Array<number | null>;
}

export interface Derived {
  /** Per target and concurrency: p50/p99 minus direct's. */
  addedMs: Record<string, Array<{ connections: number; p50: number; p99: number }>>;
  firstTokenAddedMs: Record<string, { p50: number; p99: number }>;
  /** Per target: one-connection (sequential, non-streaming) p50/p99 minus direct's. */
  oneConnectionAddedMs: Record<string, { p50: number; p99: number }>;
  checks: Check[];
  /** Context figures without a target: minimal against direct. */
  info: Array<{ name: string; value: number | null }>;
}

export function derive(results: TargetResult[]): Derived {
  const by = new Map(results.map((r) => [r.name, r]));
  const direct = by.get('direct');
  const minimal = by.get('minimal');
  const warden = by.get('warden');
  if (!direct || !minimal) throw new Error('derive: direct and minimal are both needed');

  const addedMs: Derived['addedMs'] = {};
  const firstTokenAddedMs: Derived['firstTokenAddedMs'] = {};
  const oneConnectionAddedMs: Derived['oneConnectionAddedMs'] = {};
  for (const r of results) {
    if (r.name === 'direct') continue;
    addedMs[r.name] = r.load.map((l) => {
      const base = loadAt(direct, l.connections);
      return { connections: l.connections, p50: l.p50Ms - base.p50Ms, p99: l.p99Ms - base.p99Ms };
    });
    firstTokenAddedMs[r.name] = addedOver(r.firstToken, direct.firstToken);
    oneConnectionAddedMs[r.name] = addedOver(r.oneConnection, direct.oneConnection);
  }

  const checks: Check[] = [];
  const info: Derived['info'] = [];
  for (const l of minimal.load) info.push({ name: `minimal / direct throughput @${l.connections}`, value: l.rps / loadAt(direct, l.connections).rps });
  if (warden) {
    for (const l of warden.load) {
      const c = l.connections;
      const base = loadAt(minimal, c);
      checks.push(paired(`warden / minimal throughput @${c} conns`, l, base, (w, m) => w.rps / m.rps, 'min', 0.8));
      info.push({ name: `warden / minimal CPU per request @${c}`, value: pairedFigure(l, base, (w, m) => w.serverCpuUsPerRequest / m.serverCpuUsPerRequest).value });
      const d = loadAt(direct, c);
      checks.push(paired(`warden added p50 / minimal added p50 @${c} conns`, l, base, (w, m, i) => {
        const directP50 = d.runs[i]?.p50Ms;
        return directP50 === undefined ? null : addedRatio(w.p50Ms, m.p50Ms, directP50);
      }, 'max', 1.25));
      info.push({ name: `warden / minimal throughput that added p50 ≤ 1.25 × minimal's asks for @${c} (Little's law)`, value: pairedFigure(base, d, (m, dr) => throughputForAddedRatio(m.rps / dr.rps, 1.25)).value });
    }
    checks.push(overRounds('warden added first-token p50 / minimal\'s', addedRatioRounds((r) => r.firstToken, direct, minimal, warden), 'max', 1.25));
    const oneConnection = roundFigures(addedRatioRounds((r) => r.oneConnection, direct, minimal, warden));
    info.push({ name: 'warden added p50 / minimal\'s, one connection (sequential, non-streaming)', value: oneConnection.length === 0 ? null : median(oneConnection) });
    checks.push(check(`warden RSS / minimal RSS with ${warden.held.open} streams`, warden.held.rssWithBytes / minimal.held.rssWithBytes, 'max', 1.3));
  }
  // Issue 6: what a Redis store adds per request over the SQLite one, at p50.
  const redis = by.get('warden-redis');
  if (warden && redis) {
    for (const l of redis.load) {
      const base = warden.load.find((w) => w.connections === l.connections);
      if (!base) continue;
      checks.push(paired(`warden-redis p50 − warden (SQLite) p50 @${l.connections} conns, ms`, l, base, (r, s) => r.p50Ms - s.p50Ms, 'max', 0.1));
      info.push({ name: `warden-redis − warden CPU µs per request @${l.connections}`, value: pairedFigure(l, base, (r, s) => r.serverCpuUsPerRequest - s.serverCpuUsPerRequest).value });
    }
    checks.push(overRounds('warden-redis first-token p50 − warden\'s, ms', turnRounds(redis.firstToken, warden.firstToken, (r, s) => r - s), 'max', 0.1));
  }
  return { addedMs, firstTokenAddedMs, oneConnectionAddedMs, checks, info };
}

function addedOver(target: SequentialResult, direct: SequentialResult): { p50: number; p99: number } {
  return { p50: target.p50Ms - direct.p50Ms, p99: target.p99Ms - direct.p99Ms };
}

/**
 * The warden / minimal throughput ratio at which Warden's added latency is `ratio` times the
 * minimal proxy's, when both saturate under a fixed number of connections: latency is then
 * connections / throughput (Little's law), so added latency follows throughput alone.
 * `minimalOverDirect` is the minimal proxy's throughput over direct's.
 */
export function throughputForAddedRatio(minimalOverDirect: number, ratio: number): number | null {
  if (!(minimalOverDirect > 0) || minimalOverDirect >= 1) return null;
  return 1 / (minimalOverDirect + ratio * (1 - minimalOverDirect));
}

function loadAt(result: TargetResult, connections: number): LoadResult {
  const found = result.load.find((l) => l.connections === connections);
  if (!found) throw new Error(`${result.name} has no run at ${connections} connections`);
  return found;
}

/** `figure` of two targets' runs in each round (null when that round gives none), and its median. */
export function pairedFigure(a: LoadResult, b: LoadResult, figure: (a: LoadRun, b: LoadRun, round: number) => number | null): { value: number | null; perRound: Array<number | null> } {
  const perRound = a.runs.map((run, i) => {
    const other = b.runs[i];
    return other === undefined ? null : figure(run, other, i);
  });
  const values = roundFigures(perRound);
  return { value: values.length === 0 ? null : median(values), perRound };
}

/** The rounds that gave a figure. */
export function roundFigures(perRound: ReadonlyArray<number | null>): number[] {
  return perRound.filter((v): v is number => v !== null && Number.isFinite(v));
}

/** A check judged on the median over rounds of a figure computed within each round. */
function paired(name: string, a: LoadResult, b: LoadResult, figure: (a: LoadRun, b: LoadRun, round: number) => number | null, kind: 'min' | 'max', target: number): Check {
  return overRounds(name, pairedFigure(a, b, figure).perRound, kind, target);
}

/**
 * Warden's latency over direct's, as a multiple of the minimal proxy's; null when the minimal
 * proxy added none (noise or less), where a ratio means nothing.
 */
function addedRatio(warden: number, minimal: number, direct: number): number | null {
  const minimalAdded = minimal - direct;
  return minimalAdded > 0 ? (warden - direct) / minimalAdded : null;
}

function check(name: string, value: number, kind: 'min' | 'max', target: number): Check {
  const pass = kind === 'min' ? value >= target : value <= target;
  return { name, value, kind, target, verdict: pass ? 'PASS' : 'MISS' };
}

/** `figure` of two targets' turn p50s in each round of a sequential phase (null where a turn gave none). */
function turnRounds(a: SequentialResult, b: SequentialResult, figure: (a: number, b: number, round: number) => number | null): Array<number | null> {
  return a.roundP50Ms.map((p50, i) => {
    const other = b.roundP50Ms[i];
    return p50 === null || other === null || other === undefined ? null : figure(p50, other, i);
  });
}

/** Warden's added p50 in a sequential phase over the minimal proxy's, within each round, as the load checks are. */
function addedRatioRounds(phase: (r: TargetResult) => SequentialResult, direct: TargetResult, minimal: TargetResult, warden: TargetResult): Array<number | null> {
  return turnRounds(phase(warden), phase(minimal), (w, m, i) => {
    const d = phase(direct).roundP50Ms[i];
    return d === null || d === undefined ? null : addedRatio(w, m, d);
  });
}

/** A check judged on the median of per-round figures. */
function overRounds(name: string, perRound: Array<number | null>, kind: 'min' | 'max', target: number): Check {
  const values = roundFigures(perRound);
  if (values.length === 0) return { name, value: null, kind, target, verdict: 'n/a', note: 'no round gave a figure', perRound };
  return { ...check(name, median(values), kind, target), perRound };
}
