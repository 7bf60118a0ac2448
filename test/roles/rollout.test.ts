// Gradual rollout against the simulated fleet: a 90/10 split over 1,000 requests lands within
// the binomial bounds and a sticky key keeps its model; figures side by side; advancing to
// 100 promotes the candidate; a rollback restores the previous role exactly; and automatic
// rules roll back a candidate whose answers fail the quality gate, saying why.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { admin, ALICE, rolesConfig, SCENARIO, servedBy } from './fixtures.js';

/** Runs `count` jobs, `width` at a time. */
async function inParallel<T>(count: number, width: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await job(i);
    }
  }));
  return out;
}

describe('gradual rollout', () => {
  let h: Harness;
  const as = (method: string, path: string, body?: unknown) => admin(h.url, ALICE, method, path, body);
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: (fleet) => rolesConfig(fleet) });
  });
  after(() => h.close());

  test('90/10 over 1,000 requests lands within 4 sigma; the same sticky key always gets the same model', async () => {
    const start = await as('POST', '/admin/roles/chat/rollout', { candidate: 'chat-new', weight: 10, reason: 'try the new model on 10%' });
    assert.equal(start.status, 201);
    assert.deepEqual(start.body.diff, [{ path: 'rollout', after: { candidate: 'chat-new', weight: 10 } }]);
    const served = await inParallel(1_000, 8, (i) => servedBy(h.client, 'chat', `user-${i}`));
    const onCandidate = served.filter((m) => m === 'chat-new').length;
    const sigma = Math.sqrt(1_000 * 0.1 * 0.9);
    assert.ok(Math.abs(onCandidate - 100) <= 4 * sigma, `${onCandidate} of 1,000 on the candidate`);
    assert.deepEqual(new Set(served), new Set(['chat-new', 'chat-main']));
    // The same keys again, in another order: each gets the model it got the first time.
    const again = await inParallel(200, 8, (i) => servedBy(h.client, 'chat', `user-${999 - i}`));
    again.forEach((m, i) => assert.equal(m, served[999 - i], `user-${999 - i} kept its model`));

    const { body } = await as('GET', '/admin/roles/chat/rollout');
    const [candidate, incumbent] = body.figures.arms;
    assert.equal(candidate.model, 'chat-new');
    assert.equal(incumbent.model, 'chat-main');
    assert.equal(candidate.requests, onCandidate + again.filter((m) => m === 'chat-new').length);
    assert.equal(candidate.requests + incumbent.requests, 1_200);
    assert.equal(candidate.fallbackRate, 0);
    assert.ok(candidate.latencyP50Ms > 0 && candidate.costUsd > 0 && incumbent.costUsd > candidate.costUsd);
    assert.equal(body.origin.previous, null, 'it started from the YAML role');
  });

  test('advancing moves the split and restarts the figures; rolling back restores the previous role exactly', async () => {
    const adv = await as('POST', '/admin/roles/chat/rollout/advance', { weight: 50, reason: 'clean at 10%' });
    assert.equal(adv.status, 200);
    assert.deepEqual(adv.body.diff, [{ path: 'rollout.weight', before: 10, after: 50 }]);
    const advanced = h.gateway.store.audit(1, { type: 'rollout_advanced' })[0]!.detail as { by: string; figures: { arms: Array<{ model: string; requests: number }> } };
    assert.equal(advanced.by, 'alice');
    assert.deepEqual(advanced.figures.arms.map((a) => a.model), ['chat-new', 'chat-main'], 'audited with the figures it was taken on');
    assert.equal(advanced.figures.arms[0]!.requests + advanced.figures.arms[1]!.requests, 1_200);
    assert.equal((await as('GET', '/admin/roles/chat/rollout')).body.figures.arms[0].requests, 0);
    const back = await as('POST', '/admin/roles/chat/rollout/rollback', { reason: 'latency' });
    assert.equal(back.status, 200);
    const view = (await as('GET', '/admin/roles')).body;
    assert.deepEqual(view.overlay.roles, {}, 'no overlay entry, as before the rollout');
    assert.deepEqual(view.roles.chat, view.base.chat);
    assert.equal(await servedBy(h.client, 'chat', 'user-1'), 'chat-main');

    // From an overlay entry: the rollback gives back that entry, byte for byte.
    const entry = { tier: 'degrade', models: ['chat-main', 'chat-small'], checks: ['nonempty'], maxFallbacks: 1, retry: { maxWait: '2s', budget: '4s' } };
    await as('PUT', '/admin/roles/chat', { ...entry, reason: 'tighter retries' });
    const before = (await as('GET', '/admin/roles/chat')).body;
    await as('POST', '/admin/roles/chat/rollout', { candidate: 'chat-new', weight: 25, reason: 'again' });
    await as('POST', '/admin/roles/chat/rollout/advance', { weight: 75, reason: 'looks fine' });
    await as('POST', '/admin/roles/chat/rollout/rollback', { reason: 'changed my mind' });
    const restored = (await as('GET', '/admin/roles/chat')).body;
    assert.deepEqual(restored.overlay, entry);
    assert.deepEqual(restored.effective, before.effective);
    const events = h.gateway.store.audit(3).map((e) => e.type);
    assert.deepEqual(events, ['rollout_rolled_back', 'rollout_advanced', 'rollout_started']);
  });

  test('advancing to 100 promotes the candidate: it leads the chain and the rollout ends', async () => {
    await as('POST', '/admin/roles/chat/rollout', { candidate: 'chat-new', weight: 50, reason: 'cheaper' });
    const done = await as('POST', '/admin/roles/chat/rollout/advance', { weight: 100, reason: 'clean at 50%' });
    assert.equal(done.status, 200);
    assert.deepEqual(done.body.effective.models, ['chat-new', 'chat-main', 'chat-small']);
    assert.equal(done.body.effective.rollout, undefined);
    assert.equal(h.gateway.store.audit(1)[0]!.type, 'rollout_promoted');
    assert.equal((await as('GET', '/admin/roles/chat/rollout')).status, 409);
    assert.equal(await servedBy(h.client, 'chat', 'anyone'), 'chat-new');
    await as('DELETE', '/admin/roles/overlay', { reason: 'reset' });
  });

  test('automatic rules roll back a candidate whose answers fail the quality gate, and the audit says why', async () => {
    h.fleet.setFaults('New', { prefix: 1 });
    try {
      const start = await as('POST', '/admin/roles/chat/rollout', { candidate: 'chat-new', weight: 50, auto: { after: 20, bound: 0.05 }, reason: 'auto rollout' });
      assert.equal(start.status, 201);
      let i = 0;
      while (h.gateway.roles.effective.roles.chat!.rollout && i < 400) {
        // Every answer still reaches the client: the candidate's bad ones fall back to chat-main.
        assert.equal(await servedBy(h.client, 'chat', `auto-${i++}`), 'chat-main');
      }
      const [event] = h.gateway.store.audit(1, { type: 'rollout_rolled_back' });
      assert.ok(event, `rolled back after ${i} requests`);
      assert.equal(event.detail.by, 'auto');
      assert.equal(event.detail.automatic, true);
      assert.match(String(event.detail.reason), /quality failure rate 100\.0% on chat-new vs 0\.0% on chat-main \(20 vs \d+ requests\) exceeds the bound of 5\.0%/);
      const figures = event.detail.figures as { arms: Array<{ model: string; requests: number; qualityFailureRate: number; fallbackRate: number }> };
      assert.equal(figures.arms[0]!.model, 'chat-new');
      assert.equal(figures.arms[0]!.requests, 20);
      assert.equal(figures.arms[0]!.qualityFailureRate, 1);
      assert.equal(figures.arms[0]!.fallbackRate, 1);
      assert.deepEqual(h.gateway.roles.effective.roles.chat, h.gateway.roles.base.roles.chat, 'the YAML role again');
    } finally {
      h.fleet.setFaults('New', {});
    }
  });

  test('automatic rules advance a healthy candidate step by step', async () => {
    await as('POST', '/admin/roles/chat/rollout', { candidate: 'chat-new', weight: 10, auto: { after: 10, bound: 0.05, steps: [10, 50, 80] }, reason: 'auto rollout' });
    let i = 0;
    while (h.gateway.roles.effective.roles.chat!.rollout?.weight === 10 && i < 1_000) await servedBy(h.client, 'chat', `step-${i++}`);
    assert.equal(h.gateway.roles.effective.roles.chat!.rollout!.weight, 50);
    const [event] = h.gateway.store.audit(1, { type: 'rollout_advanced' });
    assert.equal(event!.detail.by, 'auto');
    assert.match(String(event!.detail.reason), /^over 10 requests chat-new's fallback rate 0\.0% and quality failure rate 0\.0% stay within 5\.0%/);
    await as('POST', '/admin/roles/chat/rollout/rollback', { reason: 'done testing' });
  });
});
