// The dashboard's sampler and numbers as pure logic: registry readings in, per-interval points
// and counterfactual numbers out. No server, no timer: readings are fed by hand.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { counterfactuals, describeLanguages, Reading, Timeline, TimelineSampler, type CostBasis, type MetricFamily } from '../../src/dashboard/index.js';
import { GatewayMetrics } from '../../src/telemetry/index.js';

type L = Record<string, string>;
const counter = (name: string, values: Array<[L, number]>): MetricFamily => ({ name, type: 'counter', values: values.map(([labels, value]) => ({ labels, value })) });
const gauge = (name: string, values: Array<[L, number]>): MetricFamily => ({ name, type: 'gauge', values: values.map(([labels, value]) => ({ labels, value })) });
/** A histogram as prom-client writes it: buckets, _sum and _count per label set. */
const histogram = (name: string, values: Array<[L, number, number]>): MetricFamily => ({
  name,
  type: 'histogram',
  values: values.flatMap(([labels, sum, count]) => [
    { metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count },
    { metricName: `${name}_sum`, labels, value: sum },
    { metricName: `${name}_count`, labels, value: count },
  ]),
});

const MAIN_A = 'chat-main@openrouter/Alpha';
const MAIN_B = 'chat-main@openrouter/Beta';
const SMALL = 'chat-small@direct';
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

/** Running totals as the registry would hold them after some traffic. */
function registry(n: { mainA: number; mainB: number; small: number; firstMain?: number; firstSmall?: number; toSmall: number; sameModel: number; none: number; ftSum: number; ftCount: number; openings?: number }): MetricFamily[] {
  const families: MetricFamily[] = [
    counter('warden_first_attempts_total', [
      [{ role: 'chat', model: 'chat-main' }, n.firstMain ?? 0],
      [{ role: 'chat', model: 'chat-small' }, n.firstSmall ?? 0],
    ]),
    counter('warden_requests_total', [
      [{ role: 'chat', route: MAIN_A, outcome: 'ok' }, n.mainA],
      [{ role: 'chat', route: MAIN_B, outcome: 'ok' }, n.mainB],
      [{ role: 'chat', route: SMALL, outcome: 'ok' }, n.small],
    ]),
    counter('warden_fallbacks_total', [
      [{ role: 'chat', reason: 'transport:upstream_status_503', from_model: 'chat-main', to_model: 'chat-small' }, n.toSmall],
      [{ role: 'chat', reason: 'quality:stray_prefix', from_model: 'chat-main', to_model: 'chat-main' }, n.sameModel],
      [{ role: 'chat', reason: 'transport:upstream_timeout', from_model: 'chat-main', to_model: 'none' }, n.none],
    ]),
    histogram('warden_first_token_seconds', [
      [{ role: 'chat', route: MAIN_A }, n.ftSum, n.ftCount],
      [{ role: 'creative', route: MAIN_A }, n.ftSum, n.ftCount],
    ]),
    gauge('warden_breaker_state', [[{ route: MAIN_B }, 2]]),
  ];
  if (n.openings !== undefined) families.push(counter('warden_breaker_openings_total', [[{ route: MAIN_B }, n.openings]]));
  return families;
}

describe('timeline', () => {
  test('the first point counts from the gateway start; later ones are the change since the last reading', () => {
    const timeline = new Timeline({ startedAt: T0 });
    const first = timeline.add(registry({ mainA: 4, mainB: 0, small: 1, firstMain: 5, toSmall: 1, sameModel: 0, none: 0, ftSum: 0.8, ftCount: 2 }), T0 + 5_000);
    assert.equal(first.seconds, 5);
    assert.deepEqual(first.requests, { 'chat-main': 4, 'chat-small': 1 });
    assert.deepEqual(first.firstAttempts, { 'chat-main': 5 });
    // 5 requests started on chat-main, 1 left it.
    assert.equal(first.fallbackRate['chat-main'], 1 / 5);
    // chat-small answered one, but no request started there.
    assert.equal(first.fallbackRate['chat-small'], undefined);
    assert.deepEqual(first.firstTokenMs, { [MAIN_A]: 400 });

    const second = timeline.add(registry({ mainA: 10, mainB: 6, small: 5, firstMain: 19, firstSmall: 2, toSmall: 3, sameModel: 2, none: 1, ftSum: 2.8, ftCount: 4 }), T0 + 10_000);
    assert.equal(second.at, T0 + 10_000);
    assert.deepEqual(second.requests, { 'chat-main': 12, 'chat-small': 4 });
    // 14 more started on chat-main; 2 + 2 + 1 left it (to another model, to another of its endpoints, to the tier).
    assert.deepEqual(second.firstAttempts, { 'chat-main': 14, 'chat-small': 2 });
    assert.equal(second.fallbackRate['chat-main'], 5 / 14);
    assert.deepEqual(second.fallbacks, { 'chat-main': 5 });
    assert.equal(second.fallbackRate['chat-small'], 0);
    assert.deepEqual(second.firstTokenMs, { [MAIN_A]: 1000 }, '2 s more over 2 more tokens, summed over roles');
    assert.deepEqual(timeline.points().map((p) => p.at), [T0 + 5_000, T0 + 10_000]);
  });

  test('a fallback counted in the interval after its first attempt never makes a rate above 1', () => {
    const timeline = new Timeline({ startedAt: T0 });
    const base = { mainA: 0, mainB: 0, small: 0, sameModel: 0, none: 0, ftSum: 0, ftCount: 0 };
    timeline.add(registry({ ...base, firstMain: 1, toSmall: 0 }), T0 + 5_000);
    assert.equal(timeline.add(registry({ ...base, firstMain: 1, toSmall: 1, small: 1 }), T0 + 10_000).fallbackRate['chat-main'], 1);
  });

  test('an interval without traffic has no rate and no latency, rather than zeros', () => {
    const timeline = new Timeline({ startedAt: T0 });
    const totals = { mainA: 4, mainB: 0, small: 0, toSmall: 0, sameModel: 0, none: 0, ftSum: 1, ftCount: 2 };
    timeline.add(registry(totals), T0 + 5_000);
    const idle = timeline.add(registry(totals), T0 + 10_000);
    assert.deepEqual(idle.fallbackRate, {});
    assert.deepEqual(idle.firstTokenMs, {});
    assert.deepEqual(idle.requests, {});
  });

  test('breaker openings come from their counter, or from transitions to open before it existed', () => {
    const withCounter = new Timeline({ startedAt: T0 });
    const base = { mainA: 0, mainB: 0, small: 0, toSmall: 0, sameModel: 0, none: 0, ftSum: 0, ftCount: 0 };
    withCounter.add(registry({ ...base, openings: 1 }), T0 + 5_000);
    assert.deepEqual(withCounter.add(registry({ ...base, openings: 3 }), T0 + 10_000).breakerOpenings, { [MAIN_B]: 2 });

    const older = new Timeline({ startedAt: T0 });
    const transitions = (open: number) => [counter('warden_breaker_transitions_total', [[{ route: MAIN_B, to: 'open' }, open], [{ route: MAIN_B, to: 'half_open' }, open]])];
    older.add(transitions(1), T0 + 5_000);
    assert.deepEqual(older.add(transitions(2), T0 + 10_000).breakerOpenings, { [MAIN_B]: 1 });
  });

  test('a running total that went down was reset and counts from zero', () => {
    const timeline = new Timeline({ startedAt: T0 });
    const requests = (n: number) => [counter('warden_requests_total', [[{ role: 'chat', route: SMALL, outcome: 'ok' }, n]])];
    timeline.add(requests(50), T0 + 5_000);
    assert.deepEqual(timeline.add(requests(3), T0 + 10_000).requests, { 'chat-small': 3 });
  });

  test('the ring keeps the newest points only', () => {
    const timeline = new Timeline({ startedAt: T0, keep: 3 });
    for (let i = 1; i <= 5; i++) timeline.add([], T0 + i * 5_000);
    assert.deepEqual(timeline.points().map((p) => (p.at - T0) / 5_000), [3, 4, 5]);
  });

  test('the sampler stamps points with the injected clock and joins a sample already reading', async () => {
    let now = T0;
    let reads = 0;
    let release: () => void = () => {};
    const sampler = new TimelineSampler({
      now: () => now,
      everyMs: 5_000,
      read: async () => {
        reads++;
        await new Promise<void>((resolve) => (release = resolve));
        return [counter('warden_requests_total', [[{ role: 'chat', route: SMALL, outcome: 'ok' }, reads]])];
      },
    });
    now += 5_000;
    const a = sampler.sample();
    const b = sampler.sample();
    release();
    assert.equal(await a, await b);
    assert.equal(reads, 1);
    assert.equal((await a).at, T0 + 5_000);
    assert.equal((await a).seconds, 5);
    now += 5_000;
    const c = sampler.sample();
    release();
    assert.deepEqual((await c).requests, { 'chat-small': 1 });
    assert.equal(sampler.points().length, 2);
  });

  test('reads prom-client registry output as the gateway writes it', async () => {
    const metrics = new GatewayMetrics({ processMetrics: false });
    const sampler = new TimelineSampler({ now: () => T0 + 5_000, read: () => metrics.registry.getMetricsAsJSON() });
    metrics.recordRequest('chat', MAIN_A, 'ok', 0.2);
    metrics.recordRequest('chat', MAIN_A, 'ok', 0.2);
    metrics.recordFirstToken('chat', MAIN_A, 0.05);
    metrics.recordFirstToken('chat', MAIN_A, 0.15);
    metrics.recordBreakerTransition(MAIN_B, 'open', null, null);
    for (let i = 0; i < 4; i++) metrics.recordFirstAttempt('chat', 'chat-main');
    metrics.recordFallback('chat', 'transport:upstream_status_503', 'chat-main', 'chat-small');
    const point = await sampler.sample();
    assert.deepEqual(point.requests, { 'chat-main': 2 });
    assert.deepEqual(point.fallbackRate, { 'chat-main': 1 / 4 });
    assert.deepEqual(point.firstTokenMs, { [MAIN_A]: 100 });
    assert.deepEqual(point.breakerOpenings, { [MAIN_B]: 1 });
  });
});

describe('counterfactual numbers', () => {
  const results = (role: string, counts: Record<string, number>): Array<[L, number]> => Object.entries(counts).map(([result, n]) => [{ role, result }, n]);
  /** What is priced: `priced` of the configured `models`, and each role's chain. */
  const prices = (models: string[], priced: string[], chains: Record<string, string[]> = {}): CostBasis => ({ models, priced: new Set(priced), chains });
  const ALL_PRICED = prices(['chat-main', 'chat-small'], ['chat-main', 'chat-small'], { chat: ['chat-main', 'chat-small'] });

  test('degraded share, fallback share, strict 503 rate, first-try recovery and cost per role', () => {
    const reading = Reading.of([
      counter('warden_role_requests_total', [
        ...results('chat', { primary: 14, fallback: 4, degraded: 1, default: 0, client_error: 1 }),
        ...results('reasoning', { primary: 9, unavailable: 1 }),
        ...results('intent', { primary: 3, default: 1 }),
      ]),
      counter('warden_breaker_recoveries_total', [[{ route: MAIN_A, first_try: 'true' }, 3], [{ route: MAIN_B, first_try: 'false' }, 1]]),
      counter('warden_breaker_transitions_total', [[{ route: MAIN_A, to: 'open' }, 4]]),
      counter('warden_breaker_open_seconds_total', [[{ route: MAIN_A }, 90]]),
      counter('warden_cost_usd_total', [[{ role: 'chat', model: 'chat-main' }, 0.015], [{ role: 'chat', model: 'chat-small' }, 0.005]]),
    ]);
    const cf = counterfactuals(reading, { chat: 'degrade', reasoning: 'strict', intent: 'default', idle: 'strict' }, ALL_PRICED);
    const chat = cf.roles.find((r) => r.role === 'chat')!;
    assert.equal(chat.requests, 20);
    assert.equal(chat.fallbackShare, 4 / 20);
    assert.equal(chat.degradedShare, 1 / 20, 'the degrade message and the default, as warden_degraded_share counts them');
    assert.equal(chat.strictUnavailableRate, null, 'a degrade role has no strict 503 rate');
    assert.equal(chat.costUsd, 0.02);
    assert.equal(chat.costPerRequest, 0.02 / 20);
    const reasoning = cf.roles.find((r) => r.role === 'reasoning')!;
    assert.equal(reasoning.strictUnavailableRate, 1 / 10);
    assert.equal(cf.roles.find((r) => r.role === 'intent')!.degradedShare, 1 / 4);
    assert.equal(cf.roles.find((r) => r.role === 'idle')!.requests, 0, 'configured roles show even before traffic');
    assert.deepEqual(cf.strict, { requests: 10, unavailable: 1, rate: 1 / 10 });
    assert.deepEqual(cf.breakers, { openings: 4, openSeconds: 90, recoveries: 4, firstTryRecoveries: 3, firstTryRate: 3 / 4 });
  });

  test('the fallback rate per model since start: fallbacks from the model ÷ first attempts on it, over all roles', () => {
    const reading = Reading.of([
      counter('warden_first_attempts_total', [[{ role: 'chat', model: 'chat-main' }, 16], [{ role: 'creative', model: 'chat-main' }, 4], [{ role: 'chat', model: 'chat-small' }, 2]]),
      counter('warden_fallbacks_total', [
        [{ role: 'chat', reason: 'transport:upstream_status_503', from_model: 'chat-main', to_model: 'chat-small' }, 3],
        [{ role: 'creative', reason: 'quality:stray_prefix', from_model: 'chat-main', to_model: 'none' }, 2],
      ]),
    ]);
    assert.deepEqual(counterfactuals(reading, {}, ALL_PRICED).models, [
      { model: 'chat-main', firstAttempts: 20, fallbacks: 5, fallbackRate: 0.25 },
      { model: 'chat-small', firstAttempts: 2, fallbacks: 0, fallbackRate: 0 },
    ]);
  });

  test('fallbacks are requests another route answered (not those that left their first route for nothing); 503s show whatever the tier', () => {
    const reading = Reading.of([
      counter('warden_role_requests_total', [...results('chat', { primary: 6, fallback: 2 }), ...results('lookup', { unavailable: 3, primary: 1 })]),
      counter('warden_fallbacks_total', [
        [{ role: 'chat', reason: 'transport:upstream_status_500', from_model: 'm1', to_model: 'm2' }, 2],
        // Left m1 and nothing answered: a 503, not a request answered elsewhere.
        [{ role: 'lookup', reason: 'transport:upstream_status_500', from_model: 'm1', to_model: 'none' }, 3],
      ]),
    ]);
    const cf = counterfactuals(reading, { chat: 'degrade', lookup: 'degrade' }, ALL_PRICED);
    assert.equal(cf.fallbacks, 2);
    const lookup = cf.roles.find((r) => r.role === 'lookup')!;
    assert.deepEqual([lookup.unavailable, lookup.unavailableRate, lookup.strictUnavailableRate], [3, 3 / 4, null]);
    assert.equal(cf.roles.find((r) => r.role === 'chat')!.unavailableRate, 0);
  });

  test('the dedicated strict-tier counter is preferred when the gateway has it', () => {
    const reading = Reading.of([
      counter('warden_role_requests_total', results('reasoning', { primary: 8, unavailable: 2 })),
      counter('warden_strict_unavailable_total', [[{ role: 'reasoning' }, 2]]),
    ]);
    assert.equal(counterfactuals(reading, { reasoning: 'strict' }, ALL_PRICED).roles[0]!.strictUnavailableRate, 0.2);
  });

  test('cost with no price configured is unknown, not $0; with some prices it names the models left out', () => {
    const reading = Reading.of([
      counter('warden_role_requests_total', [...results('chat', { primary: 10 }), ...results('lookup', { primary: 4 })]),
      counter('warden_cost_usd_total', [[{ role: 'chat', model: 'chat-main' }, 0.01]]),
    ]);
    const tiers = { chat: 'degrade', lookup: 'degrade' } as const;
    const chains = { chat: ['chat-main', 'chat-small'], lookup: ['chat-small'] };

    const none = counterfactuals(Reading.of([counter('warden_role_requests_total', results('lookup', { primary: 4 }))]), tiers, prices(['chat-main', 'chat-small'], [], chains));
    assert.equal(none.costUsd, null, 'no price anywhere: unknown');
    assert.deepEqual(none.unpricedModels, ['chat-main', 'chat-small']);
    const lookupNone = none.roles.find((r) => r.role === 'lookup')!;
    assert.deepEqual([lookupNone.costUsd, lookupNone.costPerRequest], [null, null]);

    const some = counterfactuals(reading, tiers, prices(['chat-main', 'chat-small'], ['chat-main'], chains));
    assert.equal(some.costUsd, 0.01);
    assert.deepEqual(some.unpricedModels, ['chat-small'], 'the figure leaves these out');
    const chat = some.roles.find((r) => r.role === 'chat')!;
    assert.deepEqual([chat.costUsd, chat.unpricedModels], [0.01, ['chat-small']]);
    const lookup = some.roles.find((r) => r.role === 'lookup')!;
    assert.deepEqual([lookup.costUsd, lookup.costPerRequest, lookup.unpricedModels], [null, null, ['chat-small']], 'its only model has no price');

    const all = counterfactuals(reading, tiers, prices(['chat-main', 'chat-small'], ['chat-main', 'chat-small'], chains));
    assert.deepEqual([all.costUsd, all.unpricedModels], [0.01, []]);
    assert.equal(all.roles.find((r) => r.role === 'lookup')!.costUsd, 0, 'priced and unused: free so far');
  });

  test('answers whose upstream sent no usage are counted in total and by the routes that sent them', () => {
    const reading = Reading.of([
      counter('warden_answers_without_usage_total', [[{ role: 'chat', route: MAIN_B }, 2], [{ role: '-', route: MAIN_B }, 1], [{ role: 'lookup', route: MAIN_A }, 0]]),
    ]);
    assert.deepEqual(counterfactuals(reading, {}, ALL_PRICED).withoutUsage, { answers: 3, routes: [MAIN_B] });
    assert.deepEqual(counterfactuals(Reading.of([]), {}, ALL_PRICED).withoutUsage, { answers: 0, routes: [] }, 'a gateway without the metric: none');
  });

  test('the language detector\'s evidence reads as one line', () => {
    assert.equal(describeLanguages({ expected: 'pt', languages: [{ language: 'es', share: 0.8 }], span: 'Hola amigo' }), 'expected pt · es 0.8 · “Hola amigo”');
    assert.equal(describeLanguages({ expected: 'en', native: 1 }), 'expected en · native 1');
    assert.equal(describeLanguages(undefined), null);
  });
});
