// One canary round at a time on an instance: a manual round (POST /admin/canary/run) asked
// for while this instance's round runs joins it when it asks for the same routes, and is
// refused with a 409 otherwise, instead of running a second round beside the first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../helpers/clock.js';
import { startGate } from '../helpers/gate.js';
import { startHarness } from '../helpers/harness.js';
import { until } from '../helpers/until.js';
import { FLEET_MODEL, fleetCanaryYaml } from './fixtures.js';

const SCENARIO = { seed: 13, providers: { A: { models: [FLEET_MODEL] }, B: { models: [FLEET_MODEL] }, C: { models: [FLEET_MODEL] } } };
const TOKEN = 'one-round';

test('a manual round while this instance\u2019s round runs: the same routes join it, one route alone is a 409', async () => {
  const gate = await startGate();
  const h = await startHarness({ clock: new ManualClock(), scenario: SCENARIO, configYaml: (fleet) => fleetCanaryYaml('enforce', `server: { adminToken: "${TOKEN}" }`)({ openrouterBaseUrl: gate.to(fleet.openrouterBaseUrl) }) });
  const run = async (body: unknown) => {
    const res = await fetch(`${h.url}/admin/canary/run`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(15_000) }); // a hang guard only
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  try {
    gate.close();
    const scheduled = h.gateway.canary!.runRound();
    // Every route's first probe, all at once: concurrency covers the 3 routes.
    const held = await until(() => gate.held === 3 && gate.held, 'the round\u2019s probes reach the gate');

    const single = await run({ route: 'chat-main@openrouter/B' });
    assert.equal(single.status, 409, JSON.stringify(single.body));
    assert.equal(single.body.error.code, 'canary_round_in_progress');
    assert.match(single.body.error.message, /a round of every watched route is in progress on this instance/);
    assert.equal(gate.held, held, 'the refused round sent no probe');

    const joined = run({});
    gate.open();
    const [report, manual] = await Promise.all([scheduled, joined]);
    assert.equal(manual.status, 200);
    assert.deepEqual(manual.body, JSON.parse(JSON.stringify(report)), 'the manual call got the running round\u2019s report');
    assert.equal(h.gateway.store.audit(10, { type: 'canary_round' }).length, 1, 'one round ran');
  } finally {
    await h.close();
    await gate.stop();
  }
});
