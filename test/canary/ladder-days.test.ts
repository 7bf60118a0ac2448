// Day-scale canary rules on a hand-moved clock: the 1/3/7-day ladder, its 14-day reset,
// early release after clean rounds, and a restart that keeps every quarantine, runtime
// block and audit event (SQLite).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/state/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness } from '../helpers/harness.js';
import { FLEET_MODEL, fleetCanaryYaml } from './fixtures.js';

const MODEL = FLEET_MODEL;
const DAY = 86_400_000;
const HALF_HOUR = 1_800_000;
const SCENARIO = { seed: 9, providers: { Stray: { models: [MODEL], faults: { prefix: 1 } }, A: { models: [MODEL] }, B: { models: [MODEL] }, C: { models: [MODEL] } } };
const config = fleetCanaryYaml('enforce', 'server: { adminToken: "t0k" }');
const STRAY = 'chat-main@openrouter/Stray';

test('the ladder climbs 1 d → 3 d → 7 d and starts again after 14 clean days', async () => {
  const clock = new ManualClock();
  const h = await startHarness({ clock, scenario: SCENARIO, configYaml: config });
  const canary = h.gateway.canary!;
  const quarantine = () => h.gateway.store.getCanaryState(STRAY)!.quarantine;
  try {
    await canary.runRound();
    clock.advance(HALF_HOUR);
    await canary.runRound();
    assert.equal(quarantine()!.until - clock.now(), DAY);
    for (const expected of [3 * DAY, 7 * DAY, 7 * DAY]) {
      clock.advance(quarantine()!.until - clock.now() + 1);
      const report = await canary.runRound();
      const types = report.routes.find((r) => r.route === STRAY)!.decisions.map((d) => d.type);
      assert.deepEqual(types, ['quarantine'], 'still failing when it lapses: back in, one step up');
      assert.equal(h.gateway.store.audit(2, { route: STRAY })[1]!.type, 'expired', 'the lapse itself was recorded first');
      assert.equal(quarantine()!.until - clock.now(), expected);
    }
    // Fixed by the provider: released early after two clean rounds, then 14 quiet days.
    h.fleet.setFaults('Stray', {});
    await canary.runRound();
    clock.advance(HALF_HOUR);
    const clean = await canary.runRound();
    assert.ok(clean.routes.find((r) => r.route === STRAY)!.decisions.some((d) => d.type === 'release_early'));
    assert.equal(h.gateway.control.views().find((v) => v.id === STRAY)!.state, 'healthy');
    clock.advance(14 * DAY);
    h.fleet.setFaults('Stray', { prefix: 1 });
    await canary.runRound();
    clock.advance(HALF_HOUR);
    await canary.runRound();
    assert.equal(quarantine()!.step, 0, 'forgiven: the ladder starts again');
    assert.equal(quarantine()!.until - clock.now(), DAY);
    const audit = h.gateway.store.audit(100, { route: STRAY }).map((e) => e.type);
    for (const t of ['quarantine', 'expired', 'release_early']) assert.ok(audit.includes(t), t);
  } finally {
    await h.close();
  }
});

test('an admin release ends a quarantine at once; the ladder remembers it', async () => {
  const clock = new ManualClock();
  const h = await startHarness({ clock, scenario: SCENARIO, configYaml: config });
  try {
    await h.gateway.canary!.runRound();
    clock.advance(HALF_HOUR);
    await h.gateway.canary!.runRound();
    const res = await fetch(`${h.url}/admin/routes/${encodeURIComponent(STRAY)}/release`, { method: 'POST', headers: { authorization: 'Bearer t0k' } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { route: { state: string } }).route.state, 'healthy');
    const state = h.gateway.store.getCanaryState(STRAY)!;
    assert.equal(state.quarantine, null);
    assert.deepEqual(state.ladder, { lastStep: 0, lastEndedAt: clock.now() });
    assert.equal(h.gateway.store.audit(1, { type: 'released' })[0]!.route, STRAY);
  } finally {
    await h.close();
  }
});

/**
 * A gateway on a fresh SQLite file whose canary has quarantined Stray (two failed rounds), and
 * `restart`, which starts another gateway on the same file and clock.
 */
async function quarantinedOnFile() {
  const file = join(mkdtempSync(join(tmpdir(), 'warden-restart-')), 'warden.db');
  const log = createLogger({ level: 'silent' });
  const clock = new ManualClock();
  const first = await startHarness({ clock, scenario: SCENARIO, configYaml: config, store: new SqliteStore({ file, log }) });
  await first.gateway.canary!.runRound();
  clock.advance(HALF_HOUR);
  await first.gateway.canary!.runRound();
  const restart = (configYaml: typeof config) => startHarness({ clock, scenario: SCENARIO, configYaml, store: new SqliteStore({ file, log }) });
  return { first, clock, restart };
}

test('a restart keeps every quarantine, runtime block and audit event', async () => {
  const { first, restart } = await quarantinedOnFile();
  const block = await fetch(`${first.url}/admin/blocklist`, { method: 'POST', headers: { authorization: 'Bearer t0k', 'content-type': 'application/json' }, body: JSON.stringify({ route: 'chat-main@openrouter/A', reason: 'incident 7', ttl: '1d' }) });
  assert.equal(block.status, 201);
  const auditBefore = first.gateway.store.audit(1_000).length;
  await first.close();

  const second = await restart(config);
  try {
    const views = new Map(second.gateway.control.views().map((v) => [v.id, v]));
    assert.equal(views.get(STRAY)!.state, 'quarantined');
    assert.equal(views.get('chat-main@openrouter/A')!.state, 'blocked');
    assert.deepEqual(views.get('chat-main@openrouter/A')!.reasons, ['runtime: incident 7']);
    assert.ok(second.gateway.store.audit(1_000).length >= auditBefore);
    assert.ok(second.gateway.store.audit(10, { type: 'quarantine' }).length === 1);
    await second.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Hello!' }] });
    const ignored = (second.fleet.stats().recent.at(-1)!.providerPrefs as { ignore: string[] }).ignore.sort();
    assert.deepEqual(ignored, ['a', 'stray']);
  } finally {
    await second.close();
  }
});

test('a quarantine stored by a canary that was since removed from the config is released by the admin API', async () => {
  const { first, restart } = await quarantinedOnFile();
  assert.ok(first.gateway.store.getCanaryState(STRAY)!.quarantine);
  await first.close();

  // The same gateway without its canary section: the stored quarantine still holds the route.
  const withoutCanary = (fleet: { openrouterBaseUrl: string }) => config(fleet).replace(/^canary:.*$/m, '');
  const second = await restart(withoutCanary);
  try {
    assert.equal(second.gateway.canary, null);
    assert.equal(second.gateway.control.views().find((v) => v.id === STRAY)!.state, 'quarantined');
    await assert.rejects(second.client.chat.completions.create({ model: STRAY, messages: [{ role: 'user', content: 'Hello!' }] }), (e: { status?: number }) => e.status === 503);

    const res = await fetch(`${second.url}/admin/routes/${encodeURIComponent(STRAY)}/release`, { method: 'POST', headers: { authorization: 'Bearer t0k' } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { route: { state: string } }).route.state, 'healthy');
    assert.equal(second.gateway.store.getCanaryState(STRAY)!.quarantine, null, 'ended in the store too: a restart keeps it released');
    const released = second.gateway.store.audit(1, { type: 'released' })[0]!;
    assert.deepEqual([released.route, released.detail.by], [STRAY, 'admin']);

    const { response } = await second.client.chat.completions.create({ model: STRAY, messages: [{ role: 'user', content: 'Hello!' }] }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), STRAY, 'the released route serves again');
  } finally {
    await second.close();
  }
});
