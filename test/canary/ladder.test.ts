// The quarantine ladder over simulated days, times as numbers: seed 000's rules one by one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  INITIAL_ROUTE_STATE,
  advance,
  decideRound,
  escalatingLadder,
  expire,
  judgeProbe,
  ladderStep,
  nextLanguage,
  probeRequest,
  release,
  type CanaryDecision,
  type CanaryPolicy,
  type CanaryRouteState,
  type ProbeResult,
  type RoundVerdict,
} from '../../src/canary/index.js';
import { DAY, ENFORCE, OBSERVE, REPLIES, ROUND, T0, ok, result } from './fixtures.js';

const ROUTE = 'chat-main@openrouter/Alpha';

/** One route going through rounds; `inService` is what the caller would count for the floor. */
class Route {
  state: CanaryRouteState = INITIAL_ROUTE_STATE;
  log: CanaryDecision[] = [];
  constructor(
    public policy: CanaryPolicy = ENFORCE,
    public inService = 3,
  ) {}

  probes(at: number, probes: ProbeResult[]): CanaryDecision[] {
    const out = advance(this.state, decideRound(ROUTE, at, probes), { now: at, policy: this.policy, inServiceAfterQuarantine: this.inService });
    this.state = out.state;
    this.log.push(...out.decisions);
    return out.decisions;
  }

  round(at: number, verdict: RoundVerdict): CanaryDecision[] {
    const kind = verdict === 'fail' ? 'prefix' : 'fact';
    return this.probes(at, [result(kind, verdict === 'fail' ? 'fail' : verdict, verdict === 'fail' ? 'unmatched_markdown' : undefined)]);
  }

  /** Rounds every 30 minutes from `from`; returns the time after the last. */
  rounds(from: number, verdicts: RoundVerdict[]): number {
    let at = from;
    for (const v of verdicts) {
      this.round(at, v);
      at += ROUND;
    }
    return at;
  }
}

const types = (decisions: CanaryDecision[]) => decisions.map((d) => d.type);
const quarantines = (log: CanaryDecision[]) => log.filter((d): d is Extract<CanaryDecision, { type: 'quarantine' }> => d.type === 'quarantine');

describe('quarantine', () => {
  it('seed: a route whose prefix probe fails two rounds running is quarantined for 1 day', () => {
    const prefix = probeRequest('prefix', { languages: ['en'], language: 'en' });
    const route = new Route();
    const polluted = () => [judgeProbe(prefix, ok(REPLIES.strayAsterisk), ENFORCE), judgeProbe(prefix, ok(REPLIES.templateToken), ENFORCE)];
    assert.deepEqual(route.probes(T0, polluted()), []);
    assert.equal(route.state.consecutiveFailedRounds, 1);
    const decisions = route.probes(T0 + ROUND, polluted());
    assert.deepEqual(decisions, [{ type: 'quarantine', step: 0, since: T0 + ROUND, until: T0 + ROUND + DAY, reasons: ['prefix:unmatched_markdown', 'prefix:template_token'] }]);
    assert.deepEqual(route.state.quarantine, { since: T0 + ROUND, until: T0 + ROUND + DAY, step: 0, reasons: ['prefix:unmatched_markdown', 'prefix:template_token'] });
  });

  it('one failed round is not enough, and a pass in between starts the count again', () => {
    const route = new Route();
    route.rounds(T0, ['fail', 'pass', 'fail', 'pass', 'fail']);
    assert.equal(route.state.quarantine, null);
    assert.deepEqual(route.log, []);
  });

  it('seed: escalates 1 d → 3 d → 7 d within 14 days, and stays at 7 d', () => {
    const route = new Route();
    let at = route.rounds(T0, ['fail', 'fail']);
    const lengths: number[] = [];
    for (let i = 0; i < 4; i++) {
      const q = route.state.quarantine;
      assert.ok(q, `quarantine ${i + 1}`);
      lengths.push((q.until - q.since) / DAY);
      // Still failing when it ends: the streak is intact, so the first round after re-quarantines.
      at = q.until;
      const decisions = route.round(at, 'fail');
      assert.deepEqual(types(decisions), ['expired', 'quarantine']);
      at += ROUND;
    }
    assert.deepEqual(lengths, [1, 3, 7, 7]);
    assert.deepEqual(quarantines(route.log).map((q) => q.step), [0, 1, 2, 2, 2]);
  });

  it('seed: a third quarantine within 14 days lasts 7 days even after clean rounds in between', () => {
    const route = new Route();
    let at = route.rounds(T0, ['fail', 'fail']); // 1st: 1 d
    at = route.rounds(at, ['pass', 'pass']); // released early
    at = route.rounds(at + 2 * DAY, ['fail', 'fail']); // 2nd: 3 d
    at = route.rounds(at, ['pass', 'pass']);
    at = route.rounds(at + 5 * DAY, ['fail', 'fail']); // 3rd: 7 d
    assert.deepEqual(quarantines(route.log).map((q) => (q.until - q.since) / DAY), [1, 3, 7]);
  });

  it('seed: 14 days without a new quarantine reset the ladder to 1 day; 13 do not', () => {
    for (const [cleanDays, expected] of [[14, 1], [13, 3]] as const) {
      const route = new Route();
      route.rounds(T0, ['fail', 'fail']);
      const q = route.state.quarantine;
      assert.ok(q);
      assert.deepEqual(types(expire(route.state, q.until).decisions), ['expired']);
      let at = route.rounds(q.until, ['pass']);
      // Clean rounds every 30 minutes for the rest of the stretch.
      while (at < q.until + cleanDays * DAY) at = route.rounds(at, ['pass']);
      route.rounds(at, ['fail', 'fail']);
      const last = route.state.quarantine;
      assert.ok(last);
      assert.equal((last.until - last.since) / DAY, expected, `${cleanDays} clean days`);
    }
  });

  it('ladderStep: first step without history, forgiveness measured from the end, capped at the top', () => {
    assert.equal(ladderStep(null, T0, ENFORCE), 0);
    assert.equal(ladderStep({ lastStep: 0, lastEndedAt: T0 }, T0 + 14 * DAY - 1, ENFORCE), 1);
    assert.equal(ladderStep({ lastStep: 0, lastEndedAt: T0 }, T0 + 14 * DAY, ENFORCE), 0);
    assert.equal(ladderStep({ lastStep: 2, lastEndedAt: T0 }, T0 + DAY, ENFORCE), 2);
    assert.equal(ladderStep({ lastStep: 1, lastEndedAt: null }, T0 + 30 * DAY, ENFORCE), 2);
  });
});

describe('release', () => {
  it('seed: two clean rounds while quarantined release early; the ladder records the end', () => {
    const route = new Route();
    const at = route.rounds(T0, ['fail', 'fail']);
    assert.deepEqual(route.round(at, 'pass'), []);
    assert.equal(route.state.consecutiveCleanRounds, 1);
    assert.deepEqual(route.round(at + ROUND, 'pass'), [{ type: 'release_early', step: 0, cleanRounds: 2 }]);
    assert.equal(route.state.quarantine, null);
    assert.deepEqual(route.state.ladder, { lastStep: 0, lastEndedAt: at + ROUND });
    assert.equal(route.state.consecutiveCleanRounds, 0);
  });

  it('a failed round in between starts the clean count again', () => {
    const route = new Route();
    const at = route.rounds(T0, ['fail', 'fail', 'pass', 'fail', 'pass']);
    assert.ok(route.state.quarantine);
    assert.equal(route.state.consecutiveCleanRounds, 1);
    route.round(at, 'pass');
    assert.equal(route.state.quarantine, null);
  });

  it('seed ("连续两轮全部通过"): a round with a probe that could not tell is not clean while quarantined; it freezes the clean count', () => {
    const route = new Route();
    // Quarantined for Portuguese drifting into Spanish; the language replies then come back too short to judge.
    let at = route.rounds(T0, ['fail', 'fail']);
    const notJudged = () => [result('latency', 'pass'), result('prefix', 'pass'), result('language', 'inconclusive', 'too_short', 'pt')];
    for (let i = 0; i < 3; i++, at += ROUND) assert.deepEqual(route.probes(at, notJudged()), [], 'released on rounds that never judged the language');
    assert.ok(route.state.quarantine);
    route.round(at, 'pass');
    assert.equal(route.state.consecutiveCleanRounds, 1, 'frozen, not reset: one fully clean round so far');
    assert.deepEqual(types(route.round(at + ROUND, 'pass')), ['release_early']);
  });

  it('expire ends a quarantine at its end, not before; the ladder remembers `until`', () => {
    const route = new Route();
    route.rounds(T0, ['fail', 'fail']);
    const q = route.state.quarantine;
    assert.ok(q);
    assert.deepEqual(expire(route.state, q.until - 1), { state: route.state, decisions: [] });
    const out = expire(route.state, q.until + 5);
    assert.deepEqual(out.decisions, [{ type: 'expired', step: 0, until: q.until }]);
    assert.equal(out.state.quarantine, null);
    assert.deepEqual(out.state.ladder, { lastStep: 0, lastEndedAt: q.until });
  });

  it('an admin release ends the quarantine now and gives the route two fresh rounds', () => {
    const route = new Route();
    const at = route.rounds(T0, ['fail', 'fail']);
    const out = release(route.state, at, 'admin');
    assert.deepEqual(out.decisions, [{ type: 'released', step: 0, by: 'admin' }]);
    assert.equal(out.state.quarantine, null);
    assert.equal(out.state.consecutiveFailedRounds, 0);
    assert.deepEqual(out.state.ladder, { lastStep: 0, lastEndedAt: at });
    route.state = out.state;
    assert.deepEqual(route.round(at + ROUND, 'fail'), []);
    assert.deepEqual(types(route.round(at + 2 * ROUND, 'fail')), ['quarantine']);
    assert.deepEqual(release(INITIAL_ROUTE_STATE, at, 'admin').decisions, []);
  });
});

describe('brakes', () => {
  it('seed: transport and inconclusive rounds freeze the counters', () => {
    const route = new Route();
    let at = route.rounds(T0, ['fail', 'transport', 'inconclusive', 'transport']);
    assert.equal(route.state.consecutiveFailedRounds, 1);
    assert.equal(route.state.quarantine, null);
    at = route.rounds(at, ['fail']);
    assert.ok(route.state.quarantine, 'two failed rounds with only transport between them');
    at = route.rounds(at, ['pass', 'transport', 'inconclusive']);
    assert.equal(route.state.consecutiveCleanRounds, 1);
    assert.ok(route.state.quarantine);
    route.rounds(at, ['pass']);
    assert.equal(route.state.quarantine, null);
  });

  it('a transport round records itself and nothing else', () => {
    const route = new Route();
    route.rounds(T0, ['fail']);
    const before = route.state;
    route.round(T0 + ROUND, 'transport');
    assert.deepEqual({ ...route.state, lastRound: null }, { ...before, lastRound: null });
    assert.equal(route.state.lastRound?.verdict, 'transport');
  });

  it('seed: observe mode quarantines nothing but records would-quarantine once, and its end', () => {
    const route = new Route(OBSERVE);
    let at = route.rounds(T0, ['fail', 'fail', 'fail']);
    assert.equal(route.state.quarantine, null);
    assert.equal(route.state.wouldQuarantine, true);
    assert.equal(route.state.consecutiveFailedRounds, 3);
    assert.deepEqual(route.log, [{ type: 'would_quarantine', step: 0, until: T0 + ROUND + DAY, reasons: ['prefix:unmatched_markdown'] }]);
    at = route.rounds(at, ['pass', 'pass']);
    assert.equal(route.state.wouldQuarantine, false);
    assert.deepEqual(types(route.log), ['would_quarantine', 'would_release']);
    // Observe mode leaves the ladder alone: a real quarantine later starts at the first step.
    assert.equal(route.state.ladder, null);
  });

  it('switching to enforce drops a would-be quarantine; the next failed round quarantines for real', () => {
    const route = new Route(OBSERVE);
    const at = route.rounds(T0, ['fail', 'fail']);
    route.policy = ENFORCE;
    assert.deepEqual(types(route.round(at, 'fail')), ['quarantine']);
    assert.equal(route.state.wouldQuarantine, false);
  });

  it('seed: the capacity floor holds — the route stays in service and an admin is told, every round', () => {
    const route = new Route(ENFORCE, 1);
    let at = route.rounds(T0, ['fail', 'fail']);
    assert.deepEqual(route.log, [{ type: 'floor_held', mode: 'enforce', inService: 1, floor: 2, reasons: ['prefix:unmatched_markdown'] }]);
    assert.equal(route.state.quarantine, null);
    at = route.rounds(at, ['fail']);
    assert.deepEqual(types(route.log), ['floor_held', 'floor_held']);
    // Capacity is back: the next failed round quarantines.
    route.inService = 2;
    route.rounds(at, ['fail']);
    assert.ok(route.state.quarantine);
  });

  it('the floor holds in observe mode too: observe shows what enforce would do', () => {
    const route = new Route(OBSERVE, 0);
    route.rounds(T0, ['fail', 'fail']);
    assert.deepEqual(types(route.log), ['floor_held']);
    assert.equal(route.state.wouldQuarantine, false);
  });
});

describe('language cursor', () => {
  const languages = ENFORCE.languages; // en, pt, ja
  const language = probeRequest('language', { languages: ['pt'], language: 'pt' });

  it('rotates through the languages round by round', () => {
    const route = new Route();
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const lang = nextLanguage(route.state, languages);
      seen.push(lang);
      route.probes(T0 + i * ROUND, [result('language', 'pass', 'ok', lang)]);
    }
    assert.deepEqual(seen, ['en', 'pt', 'ja', 'en']);
  });

  it('seed: after a language anomaly the next round tests the same language again', () => {
    const route = new Route();
    route.probes(T0, [result('language', 'pass', 'ok', 'en')]);
    assert.equal(nextLanguage(route.state, languages), 'pt');
    const drift = judgeProbe(language, ok(REPLIES.portugueseWithSpanish), ENFORCE);
    const decisions = route.probes(T0 + ROUND, [drift]);
    assert.deepEqual(decisions, [{ type: 'retest_language', language: 'pt', reason: 'mixed_language' }]);
    assert.equal(nextLanguage(route.state, languages), 'pt');
    // Confirmed drift two rounds running: quarantined, and still retesting pt.
    route.probes(T0 + 2 * ROUND, [drift]);
    assert.ok(route.state.quarantine);
    assert.equal(nextLanguage(route.state, languages), 'pt');
    route.probes(T0 + 3 * ROUND, [judgeProbe(language, ok(REPLIES.portuguese), ENFORCE)]);
    assert.equal(nextLanguage(route.state, languages), 'ja');
  });

  it('an untested language (transport) is asked again; an unknown one falls back to rotation', () => {
    const route = new Route();
    route.probes(T0, [result('language', 'transport', 'upstream_status_503', 'en')]);
    assert.equal(nextLanguage(route.state, languages), 'en');
    assert.equal(nextLanguage({ ...route.state, retestLanguage: 'xx' }, languages), 'en');
    assert.throws(() => nextLanguage(route.state, []));
  });
});

describe('state', () => {
  it('is plain JSON and never mutated in place', () => {
    const route = new Route();
    route.rounds(T0, ['fail']);
    const before = structuredClone(route.state);
    const frozen = route.state;
    route.rounds(T0 + ROUND, ['fail']);
    assert.deepEqual(frozen, before);
    assert.deepEqual(JSON.parse(JSON.stringify(route.state)), route.state);
    assert.deepEqual(INITIAL_ROUTE_STATE.quarantine, null);
  });

  it('is also reachable as one policy object', () => {
    const out = escalatingLadder.advance(INITIAL_ROUTE_STATE, decideRound(ROUTE, T0, [result('fact', 'pass')]), { now: T0, policy: ENFORCE, inServiceAfterQuarantine: 3 });
    assert.equal(out.state.lastRound?.verdict, 'pass');
    assert.equal(escalatingLadder.nextLanguage(out.state, ['en']), 'en');
  });
});
