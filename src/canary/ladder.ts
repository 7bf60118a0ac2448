// The per-route state machine of seed 000, as pure state: two failed rounds quarantine on an
// escalating ladder (1 d, 3 d, 7 d; forgiven after 14 d), two clean rounds while quarantined
// release early, transport and inconclusive rounds freeze the counters, observe mode only
// records, and the capacity floor turns a quarantine into a call for a human. Every change
// comes back as a decision for the audit log; time is passed in.
import { isLanguageAnomaly } from './language-confirm.js';
import { CanaryError } from './errors.js';
import { WARDEN_FAILED_REASON, type CanaryPolicy, type CanaryRouteState, type RouteRound } from './types.js';

export type CanaryDecision =
  | { type: 'quarantine'; step: number; since: number; until: number; reasons: string[] }
  /** Observe mode: what enforce mode would have done; nothing leaves service. */
  | { type: 'would_quarantine'; step: number; until: number; reasons: string[] }
  /** Quarantining would leave fewer routes of the model in service than the floor: an admin must decide. */
  | { type: 'floor_held'; mode: CanaryPolicy['mode']; inService: number; floor: number; reasons: string[] }
  | { type: 'release_early'; step: number; cleanRounds: number }
  /** Observe mode: the would-be quarantine is over after the clean rounds. */
  | { type: 'would_release'; cleanRounds: number }
  | { type: 'expired'; step: number; until: number }
  | { type: 'released'; step: number | null; by: string }
  /** The language probe saw drift: the next round asks for the same language again. */
  | { type: 'retest_language'; language: string; reason: string };

export interface LadderContext {
  now: number;
  policy: CanaryPolicy;
  /** Routes of this model that would still be in service if this one were quarantined. */
  inServiceAfterQuarantine: number;
}

export interface LadderOutcome {
  state: CanaryRouteState;
  decisions: CanaryDecision[];
}

/** The canary's quarantine rule behind one small interface (STYLE §2), so the runner holds a policy, not branches. */
export interface QuarantineLadder {
  advance(state: CanaryRouteState, round: RouteRound, ctx: LadderContext): LadderOutcome;
  expire(state: CanaryRouteState, now: number): LadderOutcome;
  release(state: CanaryRouteState, now: number, by: string): LadderOutcome;
  nextLanguage(state: CanaryRouteState, languages: readonly string[]): string;
}

/** Folds one round into a route's state. A quarantine past its end is expired first. */
export function advance(state: CanaryRouteState, round: RouteRound, ctx: LadderContext): LadderOutcome {
  const { now, policy } = ctx;
  const expired = expire(state, now);
  const decisions = [...expired.decisions];
  const s: CanaryRouteState = { ...expired.state, lastRound: round };
  // A would-be quarantine belongs to observe mode; once enforcing, only real ones hold a route.
  if (policy.mode === 'enforce') s.wouldQuarantine = false;
  followLanguage(s, round, policy.languages, decisions);

  const held = s.quarantine !== null || s.wouldQuarantine;
  if (round.verdict === 'pass') {
    s.consecutiveFailedRounds = 0;
    if (!held) s.consecutiveCleanRounds = 0;
    // Seed 000 releases after two rounds that passed everything (连续两轮全部通过): a round
    // where some probe could not tell may not have judged what quarantined the route, so it
    // leaves the clean count where it was.
    else if (round.probes.every((p) => p.invalidated || p.verdict === 'pass')) s.consecutiveCleanRounds += 1;
    if (held && s.consecutiveCleanRounds >= policy.cleanRoundsToRelease) decisions.push(endHold(s, now));
  } else if (round.verdict === 'fail') {
    // The streak keeps counting through a quarantine: a route still failing when its
    // quarantine ends has already failed two rounds running, and the next fail re-quarantines.
    s.consecutiveFailedRounds += 1;
    s.consecutiveCleanRounds = 0;
    if (s.consecutiveFailedRounds >= policy.failedRoundsToQuarantine && !held) decisions.push(hold(s, round.reasons, ctx));
  }
  // `transport` and `inconclusive`: counters frozen, seed 000's first brake.
  return { state: s, decisions };
}

/** Ends a quarantine whose time is up; the ladder remembers its step and end for escalation. */
export function expire(state: CanaryRouteState, now: number): LadderOutcome {
  const q = state.quarantine;
  if (q === null || now < q.until) return { state, decisions: [] };
  return {
    state: { ...state, quarantine: null, consecutiveCleanRounds: 0, ladder: { lastStep: q.step, lastEndedAt: q.until } },
    decisions: [{ type: 'expired', step: q.step, until: q.until }],
  };
}

/** An admin's release: out of quarantine now, counters cleared so the route gets two fresh rounds; the ladder keeps the history. */
export function release(state: CanaryRouteState, now: number, by: string): LadderOutcome {
  const q = state.quarantine;
  if (q === null && !state.wouldQuarantine) return { state, decisions: [] };
  return {
    state: {
      ...state,
      quarantine: null,
      wouldQuarantine: false,
      consecutiveFailedRounds: 0,
      consecutiveCleanRounds: 0,
      ladder: q ? { lastStep: q.step, lastEndedAt: now } : state.ladder,
    },
    decisions: [{ type: 'released', step: q?.step ?? null, by }],
  };
}

/**
 * The ladder step of a new quarantine: the first after none, or after a clean stretch of
 * `forgiveAfter` since the last one ended; else one step up, staying on the last.
 */
export function ladderStep(ladder: CanaryRouteState['ladder'], now: number, policy: CanaryPolicy): number {
  if (ladder === null) return 0;
  // An end never recorded cannot have been forgiven.
  if (ladder.lastEndedAt !== null && now - ladder.lastEndedAt >= policy.forgiveAfter) return 0;
  return Math.min(ladder.lastStep + 1, policy.ladder.length - 1);
}

/** How long a quarantine at this step lasts. */
export function ladderDuration(step: number, policy: CanaryPolicy): number {
  const ms = policy.ladder[Math.min(step, policy.ladder.length - 1)];
  if (ms === undefined) throw new CanaryError('invalid_policy', 'canary ladder has no durations');
  return ms;
}

/** The language the next round probes: the one that drifted last round, else the next in rotation. */
export function nextLanguage(state: CanaryRouteState, languages: readonly string[]): string {
  if (languages.length === 0) throw new CanaryError('no_languages', 'the canary has no languages to probe');
  if (state.retestLanguage !== null && languages.includes(state.retestLanguage)) return state.retestLanguage;
  // In range: the index is taken modulo a non-empty list.
  return languages[state.languageCursor % languages.length] as string;
}

export const escalatingLadder: QuarantineLadder = { advance, expire, release, nextLanguage };

/** Quarantine (or would-quarantine, or hold at the floor) a route that reached the failure threshold. */
function hold(s: CanaryRouteState, reasons: string[], ctx: LadderContext): CanaryDecision {
  const { now, policy } = ctx;
  if (ctx.inServiceAfterQuarantine < policy.capacityFloor) {
    return { type: 'floor_held', mode: policy.mode, inService: ctx.inServiceAfterQuarantine, floor: policy.capacityFloor, reasons: [...reasons] };
  }
  const step = ladderStep(s.ladder, now, policy);
  const until = now + ladderDuration(step, policy);
  if (policy.mode === 'observe') {
    s.wouldQuarantine = true;
    return { type: 'would_quarantine', step, until, reasons: [...reasons] };
  }
  s.quarantine = { since: now, until, step, reasons: [...reasons] };
  return { type: 'quarantine', step, since: now, until, reasons: [...reasons] };
}

/** Early release after enough clean rounds: the quarantine ends now (or the would-be one, in observe mode). */
function endHold(s: CanaryRouteState, now: number): CanaryDecision {
  const cleanRounds = s.consecutiveCleanRounds;
  s.consecutiveCleanRounds = 0;
  const q = s.quarantine;
  if (q === null) {
    s.wouldQuarantine = false;
    return { type: 'would_release', cleanRounds };
  }
  s.quarantine = null;
  s.ladder = { lastStep: q.step, lastEndedAt: now };
  return { type: 'release_early', step: q.step, cleanRounds };
}

/** Moves the language cursor past the language this round tested, or holds it after drift. */
function followLanguage(s: CanaryRouteState, round: RouteRound, languages: readonly string[], decisions: CanaryDecision[]): void {
  const probe = round.probes.find((p) => p.kind === 'language' && !p.invalidated);
  // Untested (no probe, it never got an answer, or Warden failed reading it): try the same language again.
  if (!probe || probe.language === null || probe.verdict === 'transport' || probe.reason === WARDEN_FAILED_REASON) return;
  const at = languages.indexOf(probe.language);
  s.languageCursor = languages.length === 0 ? 0 : ((at >= 0 ? at : s.languageCursor) + 1) % languages.length;
  if (isLanguageAnomaly(probe)) {
    s.retestLanguage = probe.language;
    decisions.push({ type: 'retest_language', language: probe.language, reason: probe.reason });
  } else {
    s.retestLanguage = null;
  }
}
