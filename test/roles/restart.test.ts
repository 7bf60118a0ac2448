// The overlay outlives a restart (SQLite file store, gateway closed and opened again); a YAML
// that no longer fits the overlay is served as it is, with the reason audited, and the overlay
// comes back once the YAML fits it again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { parseConfig } from '../../src/config/index.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { parseScenario, startFleet, type Fleet } from '../../src/sim/index.js';
import { openStore } from '../../src/state/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { admin, ALICE, rolesConfig, SCENARIO, servedBy } from './fixtures.js';

describe('the role overlay across restarts', () => {
  let fleet: Fleet;
  let dir: string;
  let running: Gateway | null = null;
  const log = createLogger({ level: 'silent' });

  async function open(yaml: string): Promise<{ gateway: Gateway; url: string; client: OpenAI }> {
    const config = parseConfig(yaml, 'test', {});
    const gateway = createGateway(config, { log, processMetrics: false, canarySchedule: false, store: openStore({ sqlite: join(dir, 'warden.db') }, { log }) });
    running = gateway;
    const url = await gateway.listen(0, '127.0.0.1');
    return { gateway, url, client: new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 20_000 }) };
  }
  async function close(): Promise<void> {
    await running?.close();
    running = null;
  }

  before(async () => {
    fleet = await startFleet({ scenario: parseScenario(SCENARIO), port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'warden-roles-'));
  });
  after(async () => {
    await close();
    await fleet.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a chain changed at run time is still in place after a restart', async () => {
    const first = await open(rolesConfig(fleet));
    const put = await admin(first.url, ALICE, 'PUT', '/admin/roles/chat', { models: ['chat-new', 'chat-main'], reason: 'move chat to the new model' });
    assert.equal(put.status, 200);
    await close();

    const second = await open(rolesConfig(fleet));
    assert.equal(await servedBy(second.client, 'chat'), 'chat-new');
    const view = (await admin(second.url, ALICE, 'GET', '/admin/roles')).body;
    assert.deepEqual(view.overlay.roles.chat, { models: ['chat-new', 'chat-main'] });
    assert.equal(view.overlay.updatedBy, 'alice');
    assert.equal(view.overlay.changes.chat.by, 'alice', 'who changed each role, and why, is kept with it');
    assert.equal(view.overlay.changes.chat.reason, 'move chat to the new model');
    assert.equal(view.overlay.active, true);
    await close();
  });

  test('a YAML the overlay no longer fits is served as it is, audited; the overlay returns when it fits again', async () => {
    const withoutNew = rolesConfig(fleet).replace(/^ {2}chat-new: .*$/m, '');
    const third = await open(withoutNew);
    assert.equal(await servedBy(third.client, 'chat'), 'chat-main');
    const view = (await admin(third.url, ALICE, 'GET', '/admin/roles')).body;
    assert.equal(view.overlay.active, false);
    assert.deepEqual(view.overlay.rejected.issues[0], { path: 'roles.chat.models[0]', message: 'unknown model "chat-new"' });
    const [event] = third.gateway.store.audit(1, { type: 'role_overlay_rejected' });
    assert.equal(event!.detail.trigger, 'start');
    assert.deepEqual(event!.detail.issues, [{ path: 'roles.chat.models[0]', message: 'unknown model "chat-new"' }]);
    await close();

    const fourth = await open(rolesConfig(fleet));
    assert.equal(await servedBy(fourth.client, 'chat'), 'chat-new');
    await close();
  });
});
