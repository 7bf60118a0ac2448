// The canary's own brakes at gateway level: the round-wide token budget and a config reload
// while a round runs. A probe the canary did not send is evidence of nothing, and a round
// keeps the rules it started with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/config/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { FLEET_MODEL, fleetCanaryYaml } from './fixtures.js';

const HALF_HOUR = 1_800_000;
const SCENARIO = { seed: 11, providers: { Stray: { models: [FLEET_MODEL], faults: { prefix: 1 } }, A: { models: [FLEET_MODEL] }, B: { models: [FLEET_MODEL] }, C: { models: [FLEET_MODEL] } } };
const STRAY = 'chat-main@openrouter/Stray';

function reload(h: Harness, yaml: (fleet: { openrouterBaseUrl: string }) => string): void {
  const report = h.gateway.reload(() => parseConfig(yaml(h.fleet), 'test', {}), 'test');
  assert.ok(report.ok, JSON.stringify(report.issues));
}

test('rounds cut short by the token budget are not clean: a quarantined route is not released on probes never sent', async () => {
  const clock = new ManualClock();
  const h = await startHarness({ clock, scenario: SCENARIO, configYaml: fleetCanaryYaml('enforce') });
  const canary = h.gateway.canary!;
  try {
    await canary.runRound();
    clock.advance(HALF_HOUR);
    await canary.runRound();
    assert.equal(h.gateway.control.views().find((v) => v.id === STRAY)!.state, 'quarantined');
    // A budget of one token: the latency probe goes out (and passes), the prefix probe never does.
    reload(h, fleetCanaryYaml('enforce', '', 'tokenBudget: 1'));
    for (let i = 0; i < 2; i++) {
      clock.advance(HALF_HOUR);
      const report = await canary.runRound(STRAY);
      const stray = report.routes.find((r) => r.route === STRAY)!;
      assert.equal(stray.round.probes.find((p) => p.kind === 'latency')!.verdict, 'pass');
      assert.equal(stray.round.probes.find((p) => p.kind === 'prefix')!.reason, 'token_budget_spent');
      assert.equal(stray.round.verdict, 'inconclusive', 'a round whose probes were not all sent freezes the counters');
      assert.deepEqual(stray.decisions, []);
    }
    assert.equal(h.gateway.control.views().find((v) => v.id === STRAY)!.state, 'quarantined');
  } finally {
    await h.close();
  }
});
