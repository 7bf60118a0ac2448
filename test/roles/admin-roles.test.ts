// Role changes through the admin API against the simulated fleet, with the official openai
// client: a replaced chain serves the next request; an invalid change is refused with the
// field named and changes nothing; every change is audited with who, what and why; the base
// and the overlay are shown apart, and dropping the overlay brings the YAML back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { admin, ALICE, BOB, rolesConfig, SCENARIO, servedBy } from './fixtures.js';

describe('runtime role changes', () => {
  let h: Harness;
  const as = (token: string, method: string, path: string, body?: unknown) => admin(h.url, token, method, path, body);
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: (fleet) => rolesConfig(fleet) });
  });
  after(() => h.close());

  test('a chain replaced through the admin API serves the very next request, audited with who, what and why', async () => {
    assert.equal(await servedBy(h.client, 'chat'), 'chat-main');
    const put = await as(ALICE, 'PUT', '/admin/roles/chat', { tier: 'degrade', models: ['chat-small', 'chat-main'], checks: ['nonempty'], reason: 'chat-main price went up' });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body.effective.models, ['chat-small', 'chat-main']);
    assert.deepEqual(put.body.diff, [
      { path: 'models', before: ['chat-main', 'chat-small'], after: ['chat-small', 'chat-main'] },
      { path: 'checks', before: ['nonempty', 'prefix'], after: ['nonempty'] },
    ]);
    assert.equal(await servedBy(h.client, 'chat'), 'chat-small');

    const [event] = h.gateway.store.audit(1, { type: 'role_changed' });
    assert.equal(event!.detail.by, 'alice');
    assert.equal(event!.detail.reason, 'chat-main price went up');
    assert.equal(event!.detail.role, 'chat');
    assert.deepEqual((event!.detail.diff as Array<{ path: string }>).map((c) => c.path), ['models', 'checks']);
  });

  test('PATCH changes one field of the role as it serves; GET shows effective, base and overlay apart', async () => {
    const patch = await as(BOB, 'PATCH', '/admin/roles/chat', { maxFallbacks: 1, reason: 'fewer retries during the incident' });
    assert.equal(patch.status, 200);
    assert.deepEqual(patch.body.diff, [{ path: 'maxFallbacks', before: 2, after: 1 }]);
    const view = await as(BOB, 'GET', '/admin/roles');
    assert.deepEqual(view.body.roles.chat.models, ['chat-small', 'chat-main']);
    assert.equal(view.body.roles.chat.maxFallbacks, 1);
    assert.deepEqual(view.body.base.chat.models, ['chat-main', 'chat-small'], 'the YAML stays the base');
    assert.deepEqual(Object.keys(view.body.overlay.roles), ['chat']);
    assert.equal(view.body.overlay.updatedBy, 'bob');
    assert.equal(view.body.overlay.active, true);
    const one = await as(BOB, 'GET', '/admin/roles/chat');
    assert.equal(one.body.overlay.maxFallbacks, 1);
    assert.deepEqual(one.body.base.models, ['chat-main', 'chat-small']);
    assert.equal(h.gateway.store.audit(1, { type: 'role_changed' })[0]!.detail.by, 'bob');
  });

  test('an invalid change is refused with an OpenAI-shaped error naming the field, and changes nothing', async () => {
    const before = await as(ALICE, 'GET', '/admin/roles');
    const events = h.gateway.store.audit(1_000).length;
    const bad = await as(ALICE, 'PUT', '/admin/roles/chat', { models: ['chat-small', 'chat-smal'], reason: 'typo' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.type, 'invalid_request_error');
    assert.equal(bad.body.error.code, 'invalid_role');
    assert.equal(bad.body.error.param, 'roles.chat.models[1]');
    assert.match(bad.body.error.message, /roles\.chat\.models\[1\]: unknown model "chat-smal" \(did you mean "chat-small"\?\)/);
    const noReason = await as(ALICE, 'PATCH', '/admin/roles/chat', { tier: 'strict' });
    assert.equal(noReason.status, 400);
    assert.equal(noReason.body.error.param, 'reason');
    assert.deepEqual(await as(ALICE, 'GET', '/admin/roles'), before);
    assert.equal(h.gateway.store.audit(1_000).length, events, 'nothing audited');
    assert.equal(await servedBy(h.client, 'chat'), 'chat-small');
  });

  test('the effective config is readable, secrets hidden', async () => {
    const { status, body } = await as(ALICE, 'GET', '/admin/config/effective');
    assert.equal(status, 200);
    assert.deepEqual(body.config.roles.chat.models, ['chat-small', 'chat-main']);
    assert.equal(body.config.server.adminToken, '[secret]');
    assert.ok(!JSON.stringify(body).includes(ALICE));
  });

  test('a new role can be added at run time and is listed by /v1/models', async () => {
    const put = await as(ALICE, 'PUT', '/admin/roles/summary', { models: ['chat-new'], reason: 'new summary feature' });
    assert.equal(put.status, 200);
    assert.equal(await servedBy(h.client, 'summary'), 'chat-new');
    const models = await h.client.models.list();
    assert.ok(models.data.some((m) => m.id === 'summary'));
  });

  test('dropping the overlay brings back the YAML roles, audited', async () => {
    const drop = await as(BOB, 'DELETE', '/admin/roles/overlay', { reason: 'back to the reviewed config' });
    assert.equal(drop.status, 200);
    assert.deepEqual(drop.body.dropped.sort(), ['chat', 'summary']);
    assert.equal(await servedBy(h.client, 'chat'), 'chat-main');
    await assert.rejects(h.client.chat.completions.create({ model: 'summary', messages: [{ role: 'user', content: 'hi' }] }), (e: { status?: number }) => e.status === 404);
    const [event] = h.gateway.store.audit(1, { type: 'role_overlay_dropped' });
    assert.equal(event!.detail.by, 'bob');
    assert.equal(event!.detail.reason, 'back to the reviewed config');
    assert.deepEqual((await as(BOB, 'GET', '/admin/roles')).body.overlay.roles, {});
  });

  test('the single adminToken still works and is audited as "admin"; existing admin actions name the caller', async () => {
    const block = await as('root-token', 'POST', '/admin/blocklist', { route: 'chat-new@new', reason: 'incident 9' });
    assert.equal(block.status, 201);
    assert.equal(h.gateway.store.audit(1, { type: 'block_added' })[0]!.detail.by, 'admin');
    await as(BOB, 'DELETE', `/admin/blocklist/${block.body.id}`);
    assert.equal(h.gateway.store.audit(1, { type: 'block_removed' })[0]!.detail.by, 'bob');
    assert.equal((await as('wrong', 'GET', '/admin/roles')).status, 401);
  });
});
