// A route as the dashboard shows it: the admin view (state, layers, until, breaker) with the
// canary's last round reduced to what an operator reads per probe, and the ladder step.
import type { ProbeResult, RoundVerdict } from '../canary/types.js';
import type { RouteView } from '../health/index.js';

export interface ProbeRow {
  kind: string;
  language: string | null;
  verdict: string;
  reason: string;
  invalidated: boolean;
  firstTokenMs: number | null;
  totalMs: number | null;
  snippet: string | null;
  /** Detected languages in one line: `expected pt · native 0.12 · es 0.88`. */
  languages: string | null;
  parseError: string | null;
  /** The transport error, or the detector's sentence. */
  detail: string | null;
}

export interface DashboardRoute {
  id: string;
  model: string;
  provider: string;
  endpoint: string | null;
  state: RouteView['state'];
  /** Layers holding the route: builtin, runtime, quarantine, shed, breaker. */
  layers: string[];
  reasons: string[];
  until: number | null;
  breaker: RouteView['breaker'];
  restored: boolean;
  canary: {
    lastRoundAt: number | null;
    verdict: RoundVerdict | null;
    roundReasons: string[];
    failedRounds: number;
    cleanRounds: number;
    wouldQuarantine: boolean;
    quarantine: { since: number; until: number; step: number; reasons: string[] } | null;
    /**
     * What the canary's quarantine record means for traffic now: `holding` keeps the route out;
     * `overridden` by a manual restore, which keeps it in service (see Blocklist.entriesFor);
     * `lapsed` past its end, no longer honoured though the canary has not yet recorded the end;
     * null without a quarantine.
     */
    quarantineNow: 'holding' | 'overridden' | 'lapsed' | null;
    /** The ladder step now held (quarantined) or last taken, 0-based; null before any quarantine. */
    ladderStep: number | null;
    probes: ProbeRow[];
  } | null;
}

/** `now`: the gateway's clock, against which a quarantine's end is read. */
export function dashboardRoute(view: RouteView, now: number): DashboardRoute {
  const c = view.canary;
  const round = c?.lastRound ?? null;
  return {
    id: view.id,
    model: view.model,
    provider: view.provider,
    endpoint: view.endpoint,
    state: view.state,
    layers: [...new Set(view.reasons.map((r) => (r.startsWith('breaker ') ? 'breaker' : r.slice(0, Math.max(0, r.indexOf(':'))))))].filter(Boolean),
    reasons: view.reasons,
    until: view.until,
    breaker: view.breaker,
    restored: view.restored,
    canary: c && {
      lastRoundAt: round?.at ?? null,
      verdict: round?.verdict ?? null,
      roundReasons: round?.reasons ?? [],
      failedRounds: c.consecutiveFailedRounds,
      cleanRounds: c.consecutiveCleanRounds,
      wouldQuarantine: c.wouldQuarantine,
      quarantine: c.quarantine,
      quarantineNow: quarantineNow(c.quarantine, view.restored, now),
      ladderStep: c.quarantine?.step ?? c.ladder?.lastStep ?? null,
      probes: round?.probes.map(probeRow) ?? [],
    },
  };
}

function quarantineNow(quarantine: { until: number } | null, restored: boolean, now: number): NonNullable<DashboardRoute['canary']>['quarantineNow'] {
  if (!quarantine) return null;
  if (quarantine.until <= now) return 'lapsed';
  return restored ? 'overridden' : 'holding';
}

function probeRow(p: ProbeResult): ProbeRow {
  const e = p.evidence;
  return {
    kind: p.kind,
    language: p.language,
    verdict: p.verdict,
    reason: p.reason,
    invalidated: p.invalidated === true,
    firstTokenMs: e.firstTokenMs ?? null,
    totalMs: e.totalMs ?? null,
    snippet: e.snippet ?? null,
    languages: describeLanguages(e.languages),
    parseError: e.parseError ?? null,
    detail: e.error ?? e.detail ?? null,
  };
}

/** The language detector's evidence (src/quality/language/decide.ts) in one readable line. */
export function describeLanguages(evidence: unknown): string | null {
  if (evidence === null || typeof evidence !== 'object') return null;
  const e = evidence as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof e.expected === 'string') parts.push(`expected ${e.expected}`);
  if (typeof e.inferred === 'string') parts.push(`inferred ${e.inferred}`);
  if (typeof e.native === 'number') parts.push(`native ${e.native}`);
  if (typeof e.ambiguous === 'number') parts.push(`ambiguous ${e.ambiguous}`);
  if (Array.isArray(e.languages)) {
    for (const l of e.languages as Array<{ language?: unknown; share?: unknown }>) {
      if (typeof l?.language === 'string') parts.push(typeof l.share === 'number' ? `${l.language} ${l.share}` : l.language);
    }
  }
  if (typeof e.span === 'string') parts.push(`“${e.span}”`);
  return parts.length > 0 ? parts.join(' · ') : null;
}
