// The capacity floor counts the routes that actually serve: seed 000 stops removing routes
// when fewer than two production routes would be left, so a route already out for another
// reason — a breaker open, a runtime block, a manual shed — is not one of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { ManualClock } from '../helpers/clock.js';
import { startHarness } from '../helpers/harness.js';
import { FLEET_MODEL, fleetCanaryYaml } from './fixtures.js';

const MODEL = FLEET_MODEL;
const HALF_HOUR = 1_800_000;
const HELLO = [{ role: 'user' as const, content: 'Hello there!' }];
const SCENARIO = { seed: 5, providers: { Stray: { models: [MODEL], faults: { prefix: 1 } }, H01: { models: [MODEL] }, H02: { models: [MODEL] } } };
const config = (mode: 'observe' | 'enforce') => fleetCanaryYaml(mode, 'breaker: { failures: 2, cooldown: 10m }');
const STRAY = 'chat-main@openrouter/Stray';
const decisionsOf = (report: { routes: Array<{ route: string; decisions: Array<{ type: string }> }> }, route: string) => report.routes.find((r) => r.route === route)!.decisions.map((d) => d.type);

test('a route whose breaker is open does not count towards the floor: the quarantine is held', async () => {
  const clock = new ManualClock();
  const h = await startHarness({ clock, scenario: SCENARIO, configYaml: config('enforce') });
  try {
    await h.gateway.canary!.runRound();
    // H01 starts answering 503: two live requests pinned to it open its breaker.
    h.fleet.setFaults('H01', { error503: 1 });
    for (let i = 0; i < 2; i++) await assert.rejects(h.client.chat.completions.create({ model: 'chat-main@openrouter/H01', messages: HELLO }), OpenAI.InternalServerError);
    assert.equal(h.gateway.breakers.state('chat-main@openrouter/H01'), 'open');
    clock.advance(HALF_HOUR);
    const report = await h.gateway.canary!.runRound();
    assert.deepEqual(decisionsOf(report, STRAY), ['floor_held'], 'quarantining Stray would leave H02 alone serving');
    assert.equal(h.gateway.control.views().find((v) => v.id === STRAY)!.state, 'healthy');
    assert.equal(h.gateway.store.audit(1, { type: 'floor_held' })[0]!.route, STRAY);
  } finally {
    await h.close();
  }
});

test('observe mode counts its would-be quarantines as out, as enforce would: the second is held at the floor', async () => {
  const clock = new ManualClock();
  const scenario = { ...SCENARIO, providers: { ...SCENARIO.providers, H02: { models: [MODEL], faults: { prefix: 1 } } } };
  const run = async (mode: 'observe' | 'enforce') => {
    const h = await startHarness({ clock, scenario, configYaml: config(mode) });
    try {
      await h.gateway.canary!.runRound();
      clock.advance(HALF_HOUR);
      const report = await h.gateway.canary!.runRound();
      return [STRAY, 'chat-main@openrouter/H02'].flatMap((route) => decisionsOf(report, route)).sort();
    } finally {
      await h.close();
    }
  };
  assert.deepEqual(await run('enforce'), ['floor_held', 'quarantine'], 'three routes, two failing: one goes, one stays for the floor');
  assert.deepEqual(await run('observe'), ['floor_held', 'would_quarantine'], 'observe records what enforce does');
});
