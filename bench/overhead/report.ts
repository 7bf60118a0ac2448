// Turns raw measurements into what the issue asks: latency added over direct, Warden against
// the minimal proxy measured in the same run, each check PASS or MISS against its target.
import type { LoadResult } from './load.js';
import type { TargetResult } from './measure.js';

export interface Check {
  name: string;
  value: number | null;
  /** `min`: the value must be at least the target; `max`: at most. */
  kind: 'min' | 'max';
  target: number;
  verdict: 'PASS' | 'MISS' | 'n/a';
  note?: string;
}

export interface Derived {
  /** Per target and concurrency: p50/p99 minus direct's. */
  addedMs: Record<string, Array<{ connections: number; p50: number; p99: number }>>;
  firstTokenAddedMs: Record<string, { p50: number; p99: number }>;
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
  for (const r of results) {
    if (r.name === 'direct') continue;
    addedMs[r.name] = r.load.map((l) => {
      const base = loadAt(direct, l.connections);
      return { connections: l.connections, p50: l.p50Ms - base.p50Ms, p99: l.p99Ms - base.p99Ms };
    });
    firstTokenAddedMs[r.name] = { p50: r.firstToken.p50Ms - direct.firstToken.p50Ms, p99: r.firstToken.p99Ms - direct.firstToken.p99Ms };
  }

  const checks: Check[] = [];
  const info: Derived['info'] = [];
  for (const l of minimal.load) info.push({ name: `minimal / direct throughput @${l.connections}`, value: l.rps / loadAt(direct, l.connections).rps });
  if (warden) {
    for (const l of warden.load) {
      checks.push(check(`warden / minimal throughput @${l.connections} conns`, l.rps / loadAt(minimal, l.connections).rps, 'min', 0.8));
    }
    for (const a of addedMs.warden ?? []) {
      const base = (addedMs.minimal ?? []).find((m) => m.connections === a.connections);
      checks.push(ratioOfAdded(`warden added p50 / minimal added p50 @${a.connections} conns`, a.p50, base?.p50));
    }
    checks.push(ratioOfAdded('warden added first-token p50 / minimal\'s', firstTokenAddedMs.warden?.p50, firstTokenAddedMs.minimal?.p50));
    checks.push(check(`warden RSS / minimal RSS with ${warden.held.open} streams`, warden.held.rssWithBytes / minimal.held.rssWithBytes, 'max', 1.3));
  }
  // Issue 6: what a Redis store adds per request over the SQLite one, at p50.
  if (warden && by.get('warden-redis')) {
    for (const a of addedMs['warden-redis'] ?? []) {
      const base = (addedMs.warden ?? []).find((w) => w.connections === a.connections);
      if (base) checks.push(check(`warden-redis p50 − warden (SQLite) p50 @${a.connections} conns, ms`, a.p50 - base.p50, 'max', 0.1));
    }
    const ft = firstTokenAddedMs['warden-redis'];
    const ftBase = firstTokenAddedMs.warden;
    if (ft && ftBase) checks.push(check('warden-redis first-token p50 − warden\'s, ms', ft.p50 - ftBase.p50, 'max', 0.1));
  }
  return { addedMs, firstTokenAddedMs, checks, info };
}

function loadAt(result: TargetResult, connections: number): LoadResult {
  const found = result.load.find((l) => l.connections === connections);
  if (!found) throw new Error(`${result.name} has no run at ${connections} connections`);
  return found;
}

function check(name: string, value: number, kind: 'min' | 'max', target: number): Check {
  const pass = kind === 'min' ? value >= target : value <= target;
  return { name, value, kind, target, verdict: pass ? 'PASS' : 'MISS' };
}

/** A ratio of added latencies means nothing when the minimal proxy added none (noise or less). */
function ratioOfAdded(name: string, added: number | undefined, base: number | undefined): Check {
  if (added === undefined || base === undefined) return { name, value: null, kind: 'max', target: 1.25, verdict: 'n/a', note: 'not measured' };
  if (base <= 0) {
    return { name, value: null, kind: 'max', target: 1.25, verdict: 'n/a', note: `minimal added ${base.toFixed(3)} ms: no base to compare with` };
  }
  return check(name, added / base, 'max', 1.25);
}
