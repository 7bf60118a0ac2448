// The planner alone: which route each attempt of one request takes, against a hand-made
// view of route health.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../src/catalog/index.js';
import { parseConfig } from '../../src/config/index.js';
import { AttemptPlanner, Router, type HealthAdmission, type RouteHealth } from '../../src/routing/index.js';

const config = parseConfig(`
providers:
  or: { kind: openrouter, baseUrl: "http://127.0.0.1:9/api/v1" }
  d:  { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }
models:
  main:  { provider: or, model: x/y, routes: [Alpha, Beta, Gamma], profile: { strengths: [chat], languages: [en] } }
  small: { provider: d, model: s, profile: { strengths: [summary], languages: [en] } }
  poly:  { provider: d, model: p, profile: { strengths: [chat], languages: [pt, es] } }
  found: { provider: or, model: x/z, routes: discover }
roles:
  chat:   { tier: degrade, models: [main, small, poly], maxFallbacks: 3 }
  strict: { tier: strict, models: [small, poly] }
`, 'test', {});
const catalog = new Catalog(config);
const router = new Router(config, catalog);

class FakeHealth implements RouteHealth {
  open = new Map<string, number>();
  /** Blocked, quarantined or shed routes, with the end of their entry. */
  blocked = new Map<string, number>();
  ignored: string[] = [];
  admit(routeId: string): HealthAdmission {
    const refusal = this.refusal(routeId);
    if (refusal === null) return { admitted: true, probe: false };
    return refusal.outOfService ? { admitted: false, retryAt: refusal.retryAt, outOfService: true } : { admitted: false, retryAt: refusal.retryAt };
  }
  refusal(routeId: string): { retryAt: number; outOfService: boolean } | null {
    const blockedUntil = this.blocked.get(routeId);
    if (blockedUntil !== undefined) return { retryAt: blockedUntil, outOfService: true };
    const until = this.open.get(routeId);
    return until === undefined ? null : { retryAt: until, outOfService: false };
  }
  ignoredEndpoints(): readonly string[] {
    return this.ignored;
  }
  probeEndpoint(): string | null {
    return null;
  }
}

const options = (over: object = {}) => ({ maxFallbacks: 3, tier: 'degrade' as const, task: 'chat', language: null, escalate: false, escalationThinking: 'on' as const, ...over });

test('a fault at an endpoint is retried on the same model with that endpoint ignored', () => {
  const planner = new AttemptPlanner(router.resolve('chat')!, new FakeHealth(), options());
  const first = planner.next(null)!;
  assert.deepEqual([first.model.name, first.routeId, first.ignoredEndpoints, first.why], ['main', 'main@or', [], 'primary']);
  const second = planner.next({ choice: first, outcome: 'transport', reason: 'upstream_timeout_total', servedEndpoint: 'Beta' })!;
  assert.deepEqual([second.model.name, second.ignoredEndpoints, second.why], ['main', ['Beta'], 'fallback']);
  const third = planner.next({ choice: second, outcome: 'quality', reason: 'stray_prefix', servedEndpoint: 'Alpha' })!;
  assert.deepEqual([third.model.name, third.ignoredEndpoints], ['main', ['Beta', 'Alpha']]);
  const fourth = planner.next({ choice: third, outcome: 'quality', reason: 'stray_prefix', servedEndpoint: 'Gamma' })!;
  assert.equal(fourth.model.name, 'poly', 'no endpoint left: a model whose strengths include the task');
  assert.equal(planner.next({ choice: fourth, outcome: 'transport', reason: 'x', servedEndpoint: null }), null, 'the budget is spent');
});

test('an endpoint that failed this request is not taken as its recovery probe, which would hold the probe for nothing', () => {
  /** Beta's breaker wants a recovery probe once `wants` is set; asking for it takes it (as the board's admit does). */
  const taken: string[] = [];
  let wants = false;
  const health = new (class extends FakeHealth {
    override probeEndpoint(_model?: unknown, _allowed?: ReadonlySet<string> | null, excluded?: ReadonlySet<string> | null): string | null {
      if (!wants || excluded?.has('Beta') || taken.length > 0) return null;
      taken.push('Beta');
      return 'Beta';
    }
  })();
  const planner = new AttemptPlanner(router.resolve('chat')!, health, options());
  const first = planner.next(null)!;
  // Beta fails this request; by the next attempt its cooldown is over (a long request, a 429 waited out).
  wants = true;
  const second = planner.next({ choice: first, outcome: 'transport', reason: 'upstream_timeout_total', servedEndpoint: 'Beta' })!;
  assert.deepEqual([second.routeId, second.probe, second.ignoredEndpoints], ['main@or', false, ['Beta']]);
  assert.deepEqual(taken, [], 'Beta\u2019s probe is left for a request that will send it');
});

test('a language failure goes to a model that lists the language', () => {
  const planner = new AttemptPlanner(router.resolve('chat')!, new FakeHealth(), options({ language: 'pt' }));
  const first = planner.next(null)!;
  const second = planner.next({ choice: first, outcome: 'quality', reason: 'mixed_language', servedEndpoint: null })!;
  assert.equal(second.model.name, 'poly');
});

test('when every route is open a degrade role tries the one that reopens first; a strict role gives up with that time', () => {
  const health = new FakeHealth();
  health.open.set('main@or', 5_000).set('small@d', 2_000).set('poly@d', 9_000);
  const degrade = new AttemptPlanner(router.resolve('chat')!, health, options());
  const choice = degrade.next(null)!;
  assert.deepEqual([choice.routeId, choice.probe, choice.why], ['small@d', true, 'cooldown ends first']);
  const strict = new AttemptPlanner(router.resolve('strict')!, health, options({ tier: 'strict' }));
  assert.equal(strict.next(null), null);
  assert.equal(strict.earliestRetryAt, 2_000);
});

test('a route out of service is never the last resort: a degrade role skips it for an open breaker, and gives up when nothing else is left', () => {
  const health = new FakeHealth();
  health.blocked.set('main@or', 1_000);
  health.open.set('small@d', 2_000).set('poly@d', 9_000);
  const mixed = new AttemptPlanner(router.resolve('chat')!, health, options());
  const choice = mixed.next(null)!;
  assert.deepEqual([choice.routeId, choice.why], ['small@d', 'cooldown ends first'], 'the blocked route ends first but takes no request');
  health.blocked.set('small@d', 3_000).set('poly@d', 4_000);
  const blocked = new AttemptPlanner(router.resolve('chat')!, health, options());
  assert.equal(blocked.next(null), null);
  assert.equal(blocked.earliestRetryAt, 1_000, 'the Retry-After still says when a route comes back');
});

test('only a degrade role waits on a cooldown: a default role and a model named directly give up at once', () => {
  const health = new FakeHealth();
  health.open.set('main@or', 5_000).set('small@d', 2_000).set('poly@d', 9_000);
  const fallback = new AttemptPlanner(router.resolve('chat')!, health, options({ tier: 'default' }));
  assert.equal(fallback.next(null), null);
  assert.equal(fallback.earliestRetryAt, 2_000);
  const direct = new AttemptPlanner(router.resolve('small')!, health, options({ tier: null, maxFallbacks: 0 }));
  assert.equal(direct.next(null), null);
  assert.equal(direct.earliestRetryAt, 2_000);
});

test('a model whose every endpoint is refused is skipped, but its endpoints still count: Retry-After and the last resort, pinned', () => {
  const health = new FakeHealth();
  // Every endpoint of main is out (breakers open, one blocked); small and poly's breakers are open too.
  health.ignored = ['Alpha', 'Beta', 'Gamma'];
  health.open.set('main@or/Alpha', 7_000).set('main@or/Beta', 1_500).set('small@d', 2_000).set('poly@d', 9_000);
  health.blocked.set('main@or/Gamma', 500);
  const degrade = new AttemptPlanner(router.resolve('chat')!, health, options());
  const choice = degrade.next(null)!;
  assert.deepEqual([choice.model.name, choice.routeId, choice.pinnedEndpoint, choice.why], ['main', 'main@or/Beta', 'Beta', 'cooldown ends first'], 'the endpoint reopening first, pinned; never the blocked one');
  const fallback = new AttemptPlanner(router.resolve('chat')!, health, options({ tier: 'default' }));
  assert.equal(fallback.next(null), null);
  assert.equal(fallback.earliestRetryAt, 500, 'the blocked endpoint\'s end counts for when to come back');
});

test('a pinned request waiting on its cooldown keeps its pin', () => {
  const health = new FakeHealth();
  health.open.set('main@or/Gamma', 5_000);
  const pinned = new AttemptPlanner(router.resolve('main@or/Gamma')!, health, options({ maxFallbacks: 0 }));
  const choice = pinned.next(null)!;
  assert.deepEqual([choice.routeId, choice.pinnedEndpoint, choice.why], ['main@or/Gamma', 'Gamma', 'cooldown ends first']);
  const direct = new AttemptPlanner(router.resolve('main@or/Gamma')!, health, options({ tier: null, maxFallbacks: 0 }));
  assert.equal(direct.next(null), null, 'named directly, it has no tier to wait for');
});

test('a route id names an endpoint the model has, or one not discovered yet', () => {
  assert.equal(router.resolve('main@or/Nope'), undefined, 'the configured endpoints are known');
  assert.equal(router.resolve('main@or/Beta')?.pinnedEndpoint, 'Beta');
  assert.equal(router.resolve('found@or/Anything')?.pinnedEndpoint, 'Anything', 'before discovery the aggregator decides');
  catalog.get('found')!.setEndpoints([{ name: 'Known', tag: null, quantization: null, pricing: null, contextLength: null }]);
  assert.equal(router.resolve('found@or/Anything'), undefined);
  assert.equal(router.resolve('found@or/Known')?.pinnedEndpoint, 'Known');
});

test('a strict role never leaves its first model', () => {
  const planner = new AttemptPlanner(router.resolve('strict')!, new FakeHealth(), options({ tier: 'strict' }));
  const first = planner.next(null)!;
  assert.equal(first.model.name, 'small');
  assert.equal(planner.next({ choice: first, outcome: 'transport', reason: 'x', servedEndpoint: null }), null);
});

test('a route id pins its endpoint and never falls back', () => {
  const plan = router.resolve('main@or/Gamma')!;
  const planner = new AttemptPlanner(plan, new FakeHealth(), options({ maxFallbacks: 0 }));
  const first = planner.next(null)!;
  assert.deepEqual([first.routeId, first.pinnedEndpoint], ['main@or/Gamma', 'Gamma']);
  assert.equal(planner.next({ choice: first, outcome: 'transport', reason: 'x', servedEndpoint: 'Gamma' }), null);
});
