// One canary round at a time across instances on one Redis: a round asked for by hand on an
// instance that does not lead is refused while another instance's round runs (it would probe
// the same providers again and write decisions beside it), and runs once that round is over.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FLEET_MODEL, fleetCanaryYaml } from '../canary/fixtures.js';
import { ManualClock } from '../helpers/clock.js';
import { startCluster, type Cluster, type Instance } from '../helpers/cluster.js';
import { startGate, type Gate } from '../helpers/gate.js';
import { redisMissing } from '../helpers/redis-server.js';
import { until } from '../helpers/until.js';

const missing = redisMissing();
if (missing) console.log(`# skipped: ${missing}`);

const TOKEN = 'cluster-admin';
const SCENARIO = { seed: 5, providers: { Alpha: { models: [FLEET_MODEL] }, Beta: { models: [FLEET_MODEL] }, Stray: { models: [FLEET_MODEL], faults: { prefix: 1 } } } };
const config = (openrouter: string) => fleetCanaryYaml('enforce', `server: { adminToken: "${TOKEN}" }`, 'capacityFloor: 1')({ openrouterBaseUrl: openrouter });

describe('one canary round at a time across instances', { skip: missing ?? false }, () => {
  let cluster: Cluster;
  let gate: Gate;
  let nodes: Instance[];
  const clock = new ManualClock();
  const run = async (node: Instance, body: unknown = {}) => {
    const res = await fetch(`${node.url}/admin/canary/run`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(15_000) }); // a hang guard only
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const chatRequests = () => cluster.fleet.stats().recent.length;

  before(async () => {
    gate = await startGate();
    cluster = await startCluster(2, SCENARIO, (fleet) => config(gate.to(fleet.openrouterBaseUrl)), clock);
    nodes = cluster.nodes;
  });
  after(async () => {
    await cluster?.close();
    await gate?.stop();
  });

  test('a manual round on B while A\u2019s round runs is a 409 that says so; no probe is sent for it; once A is done, B runs', async () => {
    const [a, b] = nodes as [Instance, Instance];
    gate.close();
    const first = a.gateway.canary!.runRound();
    // Every route's first probe, all at once: concurrency covers the 3 routes.
    const held = await until(() => gate.held === 3 && gate.held, 'A\u2019s probes reach the gate');

    const refused = await run(b);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'canary_round_in_progress');
    assert.equal(refused.body.error.type, 'invalid_request_error');
    assert.match(refused.body.error.message, /in progress on another instance/);
    const single = await run(b, { route: 'chat-main@openrouter/Stray' });
    assert.equal(single.status, 409, 'a round of one route is refused the same way');
    assert.equal(gate.held, held, 'B sent no probe of its own');

    gate.open();
    const report = await first;
    assert.ok(report.routes.length >= 3);

    const before = chatRequests();
    const later = await run(b);
    assert.equal(later.status, 200, 'A handed the round lock back at its end');
    assert.ok(chatRequests() > before);
    const stray = (later.body.routes as Array<{ route: string; decisions: Array<{ type: string }> }>).find((r) => r.route.endsWith('/Stray'))!;
    assert.deepEqual(stray.decisions.map((d) => d.type), ['quarantine'], 'the two rounds ran one after the other and count as two');
  });
});
