// Config hot reload: a valid file (SIGHUP or a change on disk) is applied — roles, the
// built-in blocklist — and audited; a broken one is refused with path-named errors and the
// gateway keeps serving its running config. `warden start` wires SIGHUP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { loadConfig, watchConfig, type ConfigWatch } from '../../src/config/index.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { MemoryStore } from '../../src/state/index.js';
import { parseScenario, startFleet, type Fleet } from '../../src/sim/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { startProcess } from '../helpers/cluster.js';
import { until } from '../helpers/until.js';
import { admin, ALICE, HELLO, rolesConfig, SCENARIO, servedBy } from './fixtures.js';

describe('config hot reload', () => {
  let fleet: Fleet;
  let dir: string;
  let file: string;
  let gateway: Gateway;
  let url: string;
  let client: OpenAI;
  let watch: ConfigWatch;
  let fileWatch: ConfigWatch | null = null;
  // A canary from the start: its rules reload, its existence would need a restart.
  const base = () => rolesConfig(fleet, 'canary: { watch: [chat-small], languages: [en], mode: observe }');
  const reload = (trigger: string) => void gateway.reload(() => loadConfig(file, {}), trigger);
  const audited = (type: string) => gateway.store.audit(100, { type });

  before(async () => {
    fleet = await startFleet({ scenario: parseScenario(SCENARIO), port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'warden-reload-'));
    file = join(dir, 'warden.yaml');
    writeFileSync(file, base());
    gateway = createGateway(loadConfig(file, {}), { log: createLogger({ level: 'silent' }), processMetrics: false, canarySchedule: false, store: new MemoryStore() });
    url = await gateway.listen(0, '127.0.0.1');
    client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 20_000 });
    // SIGHUP here; the file watcher starts in its own test, so a write is never reloaded twice by two triggers.
    watch = watchConfig({ file, watchFile: false, reload });
  });
  after(async () => {
    watch.close();
    fileWatch?.close();
    await gateway.close();
    await fleet.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a broken YAML on SIGHUP is refused with path-named errors; the gateway serves on with the old config', async () => {
    writeFileSync(file, base().replace('models: [chat-main, chat-small], checks', 'models: [chat-main, chat-smal], checks'));
    process.kill(process.pid, 'SIGHUP');
    await until(() => audited('config_reload_rejected').length === 1, 'the reload is refused');
    const [event] = audited('config_reload_rejected');
    assert.equal(event!.detail.trigger, 'sighup');
    const issues = event!.detail.issues as Array<{ path: string; message: string; line?: number }>;
    assert.equal(issues[0]!.path, 'roles.chat.models[1]');
    assert.match(issues[0]!.message, /unknown model "chat-smal"/);
    assert.ok(issues[0]!.line! > 1);
    assert.equal(await servedBy(client, 'chat'), 'chat-main');
    assert.deepEqual(gateway.config.roles.chat!.models, ['chat-main', 'chat-small']);

    writeFileSync(file, 'roles: { chat: [unclosed\n');
    process.kill(process.pid, 'SIGHUP');
    await until(() => audited('config_reload_rejected').length === 2, 'the unparsable file is refused');
    assert.equal(await servedBy(client, 'chat'), 'chat-main');
  });

  test('a valid change on disk is applied at once: roles and the built-in blocklist; restart-only sections are named', async () => {
    fileWatch = watchConfig({ file, sighup: false, debounceMs: 20, reload });
    const next = base()
      .replace('models: [chat-main, chat-small], checks', 'models: [chat-small, chat-main], checks')
      .replace('roles:\n', 'blocklist:\n  - { route: chat-new@new, reason: reviewed incident 12 }\nbreaker: { failures: 1 }\nroles:\n')
      .replace(/( {2}new: +\{ kind: openai-compatible, baseUrl: "[^"]+")/, '$1, connections: 8');
    writeFileSync(file, next);
    await until(() => audited('config_reloaded').length === 1, 'the change is applied');
    const [event] = audited('config_reloaded');
    assert.equal(event!.detail.trigger, 'file');
    assert.deepEqual(event!.detail.applied, ['roles', 'blocklist', 'breaker']);
    assert.deepEqual(event!.detail.restartNeeded, ['providers']);
    assert.equal(await servedBy(client, 'chat'), 'chat-small');
    assert.ok(gateway.blocklist.isBlocked('chat-new@new'));
    assert.equal(gateway.config.providers.new!.connections, 128, 'providers keep their running values');
  });

  test('the overlay stays on top of a reloaded YAML', async () => {
    await admin(url, ALICE, 'PUT', '/admin/roles/intent', { tier: 'degrade', models: ['chat-main'], reason: 'intent on the big model' });
    writeFileSync(file, readFileSync(file, 'utf8').replace('reviewed incident 12', 'reviewed incident 13'));
    await until(() => audited('config_reloaded').length === 2, 'the second change is applied');
    assert.equal(await servedBy(client, 'intent'), 'chat-main');
    assert.equal(await servedBy(client, 'chat'), 'chat-small');
  });

  test('reloaded breaker settings and canary rules are the ones in force', async () => {
    // breaker.failures went from 5 to 1 in the reload above: one failure opens the breaker.
    fleet.setFaults('Alpha', { error503: 1 });
    try {
      await assert.rejects(client.chat.completions.create({ model: 'intent', messages: HELLO }), (e: { status?: number }) => e.status === 503);
      assert.equal(gateway.breakers.state('chat-main@alpha'), 'open');
    } finally {
      fleet.setFaults('Alpha', {});
    }
    writeFileSync(file, readFileSync(file, 'utf8').replace('mode: observe', 'mode: enforce'));
    await until(() => audited('config_reloaded').length === 3, 'the canary change is applied');
    assert.deepEqual(audited('config_reloaded')[0]!.detail.applied, ['canary']);
    const report = await gateway.canary!.runRound();
    assert.equal(report.mode, 'enforce');
  });
});

describe('config hot reload: the canary\u2019s interval with its rules', () => {
  // Only setInterval is mocked (the canary's scheduler runs on it); sockets and everything else run as they do.
  test('a new interval and mode apply together: rounds follow the new interval, in the new mode', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const fleet = await startFleet({ scenario: parseScenario(SCENARIO), port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'warden-reload-'));
    const file = join(dir, 'warden.yaml');
    const yaml = (canary: string) => rolesConfig(fleet, `canary: { watch: [chat-small], languages: [en], ${canary} }`);
    writeFileSync(file, yaml('mode: enforce, interval: 10m'));
    const gateway = createGateway(loadConfig(file, {}), { log: createLogger({ level: 'silent' }), processMetrics: false, store: new MemoryStore() });
    const rounds = () => gateway.store.audit(100, { type: 'canary_round' }).length;
    try {
      const url = await gateway.listen(0, '127.0.0.1');
      writeFileSync(file, yaml('mode: observe, interval: 5m'));
      const report = gateway.reload(() => loadConfig(file, {}), 'file');
      assert.deepEqual([report.applied, report.restartNeeded], [['canary'], []]);
      assert.deepEqual(gateway.store.audit(1, { type: 'config_reloaded' })[0]!.detail, { trigger: 'file', applied: ['canary'], restartNeeded: [] });
      const effective = await admin(url, ALICE, 'GET', '/admin/config/effective');
      assert.deepEqual([effective.body.config.canary.mode, effective.body.config.canary.interval], ['observe', 300_000]);
      const dashboard = await admin(url, ALICE, 'GET', '/admin/dashboard');
      assert.deepEqual([dashboard.body.canary.mode, dashboard.body.canary.intervalMs], ['observe', 300_000]);

      // The old interval would run its first round after 10 minutes.
      assert.equal(rounds(), 0);
      t.mock.timers.tick(5 * 60_000);
      await until(() => rounds() === 1, 'a round five minutes after the reload');
      assert.equal((await gateway.canary!.runRound()).mode, 'observe');
    } finally {
      await gateway.close();
      await fleet.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('warden start', () => {
  test('reloads on SIGHUP and keeps serving when the file is broken', async () => {
    const fleet = await startFleet({ scenario: parseScenario(SCENARIO), port: 0 });
    const proc = await startProcess(rolesConfig(fleet, 'state: { memory: true }'));
    try {
      const file = proc.child.spawnargs[proc.child.spawnargs.indexOf('--config') + 1]!;
      writeFileSync(file, readFileSync(file, 'utf8').replace('tier: degrade, models: [chat-main', 'tier: sometimes, models: [chat-main'));
      proc.child.kill('SIGHUP');
      const line = await until(() => proc.lines.find((l) => l.includes('"config_reload_rejected"')), 'the process refuses the file');
      assert.match(line, /roles\.chat\.tier/);
      const client = new OpenAI({ baseURL: `${proc.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 20_000 });
      const answer = await client.chat.completions.create({ model: 'chat', messages: HELLO });
      assert.ok(answer.choices[0]!.message.content);
    } finally {
      await proc.kill();
      await fleet.close();
    }
  });
});
