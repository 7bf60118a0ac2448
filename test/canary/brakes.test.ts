// The canary's own brakes at gateway level: the round-wide token budget and a config reload
// while a round runs. A probe the canary did not send is evidence of nothing, and a round
// keeps the rules it started with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/config/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startGate, type Gate } from '../helpers/gate.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { until } from '../helpers/until.js';
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

/** A gateway whose probes pass through a gate, so a test can stop a round between sending and judging. */
async function gated(clock: ManualClock, canary: string): Promise<{ h: Harness; gate: Gate; close(): Promise<void> }> {
  const gate = await startGate();
  const h = await startHarness({ clock, scenario: SCENARIO, configYaml: (fleet) => fleetCanaryYaml('enforce', '', canary)({ openrouterBaseUrl: gate.to(fleet.openrouterBaseUrl) }) });
  return { h, gate, close: async () => (await h.close(), await gate.stop()) };
}

/** Starts a round, holds its probes at the gate, runs `meanwhile`, then lets the round finish. */
async function roundAround(h: Harness, gate: Gate, meanwhile: () => void) {
  gate.close();
  const round = h.gateway.canary!.runRound();
  await until(() => gate.held > 0, 'the round\u2019s first probes reach the gate');
  meanwhile();
  gate.open();
  return round;
}

test('a reload during a round that raises failedRounds does not change that round: it judges with the rules it started with', async () => {
  const { h, gate, close } = await gated(new ManualClock(), 'failedRounds: 1');
  try {
    const report = await roundAround(h, gate, () => reload(h, (fleet) => fleetCanaryYaml('enforce', '', 'failedRounds: 3')({ openrouterBaseUrl: gate.to(fleet.openrouterBaseUrl) })));
    const stray = report.routes.find((r) => r.route === STRAY)!;
    assert.equal(stray.round.verdict, 'fail');
    assert.ok(stray.decisions.some((d) => d.type === 'quarantine'), `one failed round was enough when the round began: ${JSON.stringify(stray.decisions)}`);
    assert.equal(h.gateway.control.views().find((v) => v.id === STRAY)!.state, 'quarantined');
  } finally {
    await close();
  }
});

test('a reload to observe during a round takes effect at once: that round quarantines nothing and records would-quarantine', async () => {
  const { h, gate, close } = await gated(new ManualClock(), 'failedRounds: 1');
  try {
    const report = await roundAround(h, gate, () => reload(h, (fleet) => fleetCanaryYaml('observe', '', 'failedRounds: 1')({ openrouterBaseUrl: gate.to(fleet.openrouterBaseUrl) })));
    assert.equal(report.mode, 'observe');
    const stray = report.routes.find((r) => r.route === STRAY)!;
    assert.deepEqual(stray.decisions.map((d) => d.type), ['would_quarantine']);
    assert.equal(h.gateway.control.views().find((v) => v.id === STRAY)!.state, 'healthy', 'no quarantine is enforced after the switch to observe');
    assert.equal(h.gateway.store.audit(10, { type: 'quarantine' }).length, 0);
  } finally {
    await close();
  }
});
