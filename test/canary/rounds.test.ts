// Canary rounds against the simulated fleet: pinned probes, verdicts, brakes and their
// effect on live routing (provider.ignore), as seed 000 describes them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fleet } from '../../src/sim/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { startReceiver, type Receiver } from '../helpers/webhook.js';

const MODEL = 'deepseek/deepseek-chat';
const HALF_HOUR = 30 * 60_000;

function fleetOf(special: Record<string, object>, healthy: number) {
  const providers: Record<string, object> = {};
  for (const [name, spec] of Object.entries(special)) providers[name] = { models: [MODEL], ...spec };
  for (let i = 1; i <= healthy; i++) providers[`H${String(i).padStart(2, '0')}`] = { models: [MODEL] };
  return { seed: 3, providers };
}

const config = (canary: string, hook?: string) => (fleet: Fleet) => `
server: { adminToken: "t0k" }
${hook ? `notify: { webhooks: ["${hook}"], retries: 0 }` : ''}
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
models:
  chat-main: { provider: openrouter, model: ${MODEL}, timeouts: { firstByte: 2s } }
roles:
  chat: { tier: degrade, models: [chat-main] }
canary: { watch: [chat-main], firstTokenLimit: 1s, ${canary} }
`;

const verdicts = (report: { routes: Array<{ route: string; round: { verdict: string } }> }) => Object.fromEntries(report.routes.map((r) => [r.route.split('/')[1], r.round.verdict]));

describe('seed 000, case one: 19 of 20 replies polluted at the start, among 14 healthy endpoints', () => {
  let h: Harness;
  let hook: Receiver;
  const clock = new ManualClock();
  before(async () => {
    hook = await startReceiver();
    h = await startHarness({ clock, scenario: fleetOf({ Stray: { faults: { prefix: 0.95 } } }, 14), configYaml: config('mode: enforce, languages: [en, pt, zh]', hook.url) });
  });
  after(async () => {
    await h.close();
    await hook.close();
  });

  test('one failed round changes nothing; the second quarantines the polluted endpoint only', async () => {
    const first = await h.gateway.canary!.runRound();
    assert.equal(verdicts(first).Stray, 'fail');
    assert.deepEqual(Object.entries(verdicts(first)).filter(([, v]) => v !== 'pass').map(([k]) => k), ['Stray']);
    const prefix = first.routes.find((r) => r.route.endsWith('/Stray'))!.round.probes.find((p) => p.kind === 'prefix')!;
    assert.equal(prefix.verdict, 'fail');
    assert.ok(prefix.evidence.snippet, 'the probe keeps the raw snippet as evidence');
    assert.equal(h.gateway.control.views().find((v) => v.id.endsWith('/Stray'))!.state, 'healthy');

    clock.advance(HALF_HOUR);
    const second = await h.gateway.canary!.runRound();
    const stray = second.routes.find((r) => r.route.endsWith('/Stray'))!;
    const quarantine = stray.decisions.find((d) => d.type === 'quarantine');
    assert.ok(quarantine && quarantine.type === 'quarantine');
    assert.equal(quarantine.until - clock.now(), 86_400_000, 'first step of the ladder: one day');
    const views = h.gateway.control.views();
    assert.deepEqual(views.filter((v) => v.state !== 'healthy').map((v) => [v.id, v.state]), [['chat-main@openrouter/Stray', 'quarantined']]);

    await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Hello!' }] });
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { ignore: ['stray'] }, 'live traffic keeps out of the quarantined endpoint');

    await h.gateway.notifier.settled();
    assert.ok(hook.received.some((n) => n.type === 'quarantine' && n.route === 'chat-main@openrouter/Stray'), 'the admin is notified');
    const audit = h.gateway.store.audit(10, { type: 'quarantine' })[0]!;
    assert.ok((audit.detail.probes as unknown[]).length > 0, 'the audit keeps the evidence');
  });

  test('every probe was pinned to its endpoint with fallbacks off', () => {
    const pinned = h.fleet.stats().recent.filter((r) => (r.providerPrefs as { allow_fallbacks?: boolean } | null)?.allow_fallbacks === false);
    assert.ok(pinned.length >= 15 * 6);
    for (const r of pinned) assert.deepEqual((r.providerPrefs as { order: string[] }).order, [r.served!.toLowerCase()]);
  });
});

describe('seed 000, case two: Portuguese drifting into Spanish, 3 times in 3', () => {
  let h: Harness;
  const clock = new ManualClock();
  before(async () => {
    h = await startHarness({ clock, scenario: fleetOf({ Drifty: { faults: { drift: 1 } } }, 3), configYaml: config('mode: enforce, languages: [pt, en]') });
  });
  after(() => h.close());

  test('the anomaly is confirmed twice on the spot, the same language is retested, two rounds quarantine', async () => {
    const before = h.fleet.stats().providers.Drifty!.requests;
    const first = await h.gateway.canary!.runRound();
    const language = first.routes.find((r) => r.route.endsWith('/Drifty'))!.round.probes.find((p) => p.kind === 'language')!;
    assert.equal(language.verdict, 'fail');
    assert.equal(language.language, 'pt');
    assert.deepEqual(language.evidence.confirmations, ['fail', 'fail', 'fail']);
    assert.equal(h.fleet.stats().providers.Drifty!.requests - before, 6 + 2, 'six probes and two confirmations');
    assert.ok(language.evidence.languages ?? language.evidence.found, 'detected languages are kept');
    clock.advance(HALF_HOUR);
    const second = await h.gateway.canary!.runRound();
    const drifty = second.routes.find((r) => r.route.endsWith('/Drifty'))!;
    assert.equal(drifty.round.probes.find((p) => p.kind === 'language')!.language, 'pt', 'the next round retests the same language');
    assert.ok(drifty.decisions.some((d) => d.type === 'quarantine'));
    const healthy = second.routes.filter((r) => !r.route.endsWith('/Drifty'));
    assert.ok(healthy.every((r) => r.round.probes.find((p) => p.kind === 'language')!.language === 'en'), 'healthy endpoints rotate on');
  });
});

describe('first token, broken JSON, and transport errors', () => {
  let h: Harness;
  const clock = new ManualClock();
  before(async () => {
    h = await startHarness({
      clock,
      // Thinker reasons aloud at once and answers as late as Sleepy: its first token is the reasoning.
      scenario: fleetOf({ Sleepy: { firstTokenMs: 1_500 }, Thinker: { firstTokenMs: 1_500, reasoning: true }, Garbled: { faults: { brokenJson: 1 } }, Down: { faults: { error503: 1 } } }, 3),
      configYaml: config('mode: enforce, languages: [en]'),
    });
  });
  after(() => h.close());

  test('a slow first token and broken JSON fail their probes; 5xx only freezes the counters', async () => {
    for (let round = 0; round < 3; round++) {
      const report = await h.gateway.canary!.runRound();
      const v = verdicts(report);
      assert.equal(v.Sleepy, 'fail');
      assert.equal(v.Thinker, 'pass', 'a model thinking aloud is not slow to its first token');
      assert.equal(v.Garbled, 'fail');
      assert.equal(v.Down, 'transport');
      if (round === 0) {
        const latency = report.routes.find((r) => r.route.endsWith('/Sleepy'))!.round.probes.find((p) => p.kind === 'latency')!;
        assert.equal(latency.reason, 'first_token_slow');
        const schema = report.routes.find((r) => r.route.endsWith('/Garbled'))!.round.probes.find((p) => p.kind === 'schema')!;
        assert.equal(schema.verdict, 'fail');
        assert.ok(schema.evidence.parseError !== undefined || schema.evidence.parsed !== undefined);
      }
      clock.advance(HALF_HOUR);
    }
    const states = new Map(h.gateway.control.views().map((v) => [v.id.split('/')[1], v]));
    assert.equal(states.get('Sleepy')!.state, 'quarantined');
    assert.equal(states.get('Thinker')!.state, 'healthy');
    assert.equal(states.get('Garbled')!.state, 'quarantined');
    assert.equal(states.get('Down')!.state, 'healthy', 'transport errors never quarantine');
    assert.equal(states.get('Down')!.canary!.consecutiveFailedRounds, 0);
  });
});

describe('garbage instead of an event stream', () => {
  test('is a transport fault for every probe, the latency probe too: it freezes the counters and is counted as transport', async () => {
    const clock = new ManualClock();
    const h = await startHarness({ clock, scenario: fleetOf({ Junk: {} }, 3), configYaml: config('mode: enforce, languages: [en]') });
    try {
      // Set at run time, as an operator reproducing it would through the fleet's admin endpoint.
      h.fleet.setFaults('Junk', { garbage: 1 });
      for (let round = 0; round < 2; round++) {
        const report = await h.gateway.canary!.runRound('chat-main@openrouter/Junk');
        const junk = report.routes[0]!;
        assert.equal(junk.round.verdict, 'transport');
        assert.deepEqual(junk.round.probes.map((p) => [p.kind, p.verdict]), junk.round.probes.map((p) => [p.kind, 'transport']));
        const latency = junk.round.probes.find((p) => p.kind === 'latency')!;
        assert.equal(latency.reason, 'upstream_invalid_response');
        assert.match(latency.evidence.error ?? '', /upstream_invalid_response/);
        clock.advance(HALF_HOUR);
      }
      const view = h.gateway.control.views().find((v) => v.id.endsWith('/Junk'))!;
      assert.equal(view.state, 'healthy', 'a transport fault never quarantines');
      assert.equal(view.canary!.consecutiveFailedRounds, 0);
      const metrics = await (await fetch(`${h.url}/metrics`)).text();
      assert.match(metrics, /warden_canary_probe_results_total\{probe="latency",verdict="transport"\} 2/);
      assert.doesNotMatch(metrics, /warden_canary_probe_results_total\{probe="latency",verdict="fail"\}/);
    } finally {
      await h.close();
    }
  });
});

describe('positive controls', () => {
  test('a control that fails the filter probe keeps it valid; the filtering endpoint is quarantined', async () => {
    const clock = new ManualClock();
    const h = await startHarness({
      clock,
      scenario: fleetOf({ Prude: { faults: { contentFilter: 1 } }, KnownFilter: { faults: { refusal: 1 } } }, 3),
      configYaml: config('mode: enforce, languages: [en], controls: [chat-main@openrouter/KnownFilter]'),
    });
    try {
      let report = await h.gateway.canary!.runRound();
      assert.deepEqual(report.invalidated, []);
      assert.equal(report.routes.find((r) => r.route.endsWith('/KnownFilter'))!.control, true);
      clock.advance(HALF_HOUR);
      report = await h.gateway.canary!.runRound();
      assert.ok(report.routes.find((r) => r.route.endsWith('/Prude'))!.decisions.some((d) => d.type === 'quarantine'));
      assert.equal(h.gateway.control.views().find((v) => v.id.endsWith('/KnownFilter'))!.state, 'healthy', 'a control is never quarantined');
    } finally {
      await h.close();
    }
  });

  test('a control that passes invalidates the filter probe for every route and raises an alert', async () => {
    const hook = await startReceiver();
    const h = await startHarness({
      scenario: fleetOf({ Prude: { faults: { contentFilter: 1 } }, NotSoKnown: {} }, 2),
      configYaml: config('mode: enforce, languages: [en], controls: [chat-main@openrouter/NotSoKnown]', hook.url),
    });
    try {
      const report = await h.gateway.canary!.runRound();
      assert.deepEqual(report.invalidated, ['filter']);
      for (const r of report.routes) assert.equal(r.round.probes.find((p) => p.kind === 'filter')!.invalidated, true);
      assert.match(report.alerts[0]!, /NotSoKnown passed the filter probe/);
      await h.gateway.notifier.settled();
      assert.ok(hook.received.some((n) => n.type === 'probe_invalidated'));
      assert.equal(h.gateway.store.audit(5, { type: 'probe_invalidated' }).length, 1);
    } finally {
      await h.close();
      await hook.close();
    }
  });

  test('a round of one route probes the controls too: a control that passes voids the filter probe, which then decides nothing for the route', async () => {
    const h = await startHarness({
      scenario: fleetOf({ Prude: { faults: { contentFilter: 1 } }, NotSoKnown: {} }, 2),
      configYaml: config('mode: enforce, failedRounds: 1, languages: [en], controls: [chat-main@openrouter/NotSoKnown]'),
    });
    try {
      const report = await h.gateway.canary!.runRound('chat-main@openrouter/Prude');
      const probed = Object.fromEntries(report.routes.map((r) => [r.route.split('/')[1], r.control]));
      assert.deepEqual(probed, { Prude: false, NotSoKnown: true }, 'the route asked for and the control, no other route');
      assert.deepEqual(report.invalidated, ['filter']);
      assert.match(report.alerts[0]!, /NotSoKnown passed the filter probe/);
      const prude = report.routes.find((r) => r.route.endsWith('/Prude'))!;
      assert.equal(prude.round.probes.find((p) => p.kind === 'filter')!.invalidated, true);
      // Prude fails other probes too (every reply of it is filtered); the filter probe is no reason of its verdict.
      assert.ok(!prude.round.reasons.some((r) => r.startsWith('filter:')), JSON.stringify(prude.round.reasons));
      const quarantine = prude.decisions.find((d) => d.type === 'quarantine');
      assert.ok(quarantine && quarantine.type === 'quarantine' && !quarantine.reasons.some((r) => r.startsWith('filter:')));
    } finally {
      await h.close();
    }
  });
});

describe('brakes: capacity floor and observe mode', () => {
  test('a quarantine that would leave fewer than 2 endpoints in service is held and the admin notified', async () => {
    const hook = await startReceiver();
    const clock = new ManualClock();
    const h = await startHarness({ clock, scenario: fleetOf({ Stray: { faults: { prefix: 1 } } }, 2), configYaml: config('mode: enforce, languages: [en]', hook.url) });
    try {
      await h.gateway.canary!.runRound();
      clock.advance(HALF_HOUR);
      const report = await h.gateway.canary!.runRound();
      const decisions = report.routes.find((r) => r.route.endsWith('/Stray'))!.decisions;
      assert.ok(decisions.some((d) => d.type === 'quarantine'), 'three endpoints: two stay in service');
      await h.gateway.control.addBlock('chat-main@openrouter/H01', 'incident', null, 'test');
      h.fleet.setFaults('H02', { prefix: 1 });
      clock.advance(HALF_HOUR);
      await h.gateway.canary!.runRound();
      clock.advance(HALF_HOUR);
      const held = await h.gateway.canary!.runRound();
      const h02 = held.routes.find((r) => r.route.endsWith('/H02'))!;
      assert.ok(h02.decisions.some((d) => d.type === 'floor_held'));
      assert.equal(h.gateway.control.views().find((v) => v.id.endsWith('/H02'))!.state, 'healthy', 'the last endpoint stays in service');
      await h.gateway.notifier.settled();
      assert.ok(hook.received.some((n) => n.type === 'floor_held' && n.route === 'chat-main@openrouter/H02'));
    } finally {
      await h.close();
      await hook.close();
    }
  });

  test('observe mode computes everything, records would-quarantine, and changes no routing', async () => {
    const clock = new ManualClock();
    const h = await startHarness({ clock, scenario: fleetOf({ Stray: { faults: { prefix: 1 } } }, 3), configYaml: config('mode: observe, languages: [en]') });
    try {
      await h.gateway.canary!.runRound();
      clock.advance(HALF_HOUR);
      const report = await h.gateway.canary!.runRound();
      assert.ok(report.routes.find((r) => r.route.endsWith('/Stray'))!.decisions.some((d) => d.type === 'would_quarantine'));
      const view = h.gateway.control.views().find((v) => v.id.endsWith('/Stray'))!;
      assert.equal(view.state, 'healthy');
      assert.equal(view.canary!.wouldQuarantine, true);
      await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Hello!' }] });
      assert.equal(h.fleet.stats().recent.at(-1)!.providerPrefs, null, 'nothing is ignored in observe mode');
    } finally {
      await h.close();
    }
  });
});
