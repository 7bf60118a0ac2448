// Client keys and admin tokens reload without a restart: a leaked key is rotated by editing the
// file (or SIGHUP), the new key serves at once and the old one is refused; the rest of the
// server section (address, limits) still waits for a restart. Off loopback, a reload may not
// remove the last client key.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { parseConfig } from '../../src/config/index.js';
import { createGateway } from '../../src/gateway.js';
import { MemoryStore } from '../../src/state/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { admin, HELLO, rolesConfig, startFromFile, type FileGateway } from './fixtures.js';

const withKeys = (yaml: string, keys: string[], adminToken = 'root-token') =>
  yaml.replace('server: { adminToken: "root-token",', `server: { clientKeys: ${JSON.stringify(keys)}, adminToken: "${adminToken}",`);

describe('config hot reload: client keys and admin tokens', () => {
  let h: FileGateway;
  const reloadWith = (text: string) => h.gateway.reload(() => parseConfig(text, 'test', {}), 'test');
  const ask = (key: string) => new OpenAI({ baseURL: `${h.url}/v1`, apiKey: key, maxRetries: 0 }).chat.completions.create({ model: 'chat', messages: HELLO });
  const status = (promise: Promise<unknown>) => promise.then(() => 200, (e: unknown) => (e as { status?: number }).status);

  before(async () => {
    h = await startFromFile((fleet) => withKeys(rolesConfig(fleet), ['ck-old']));
  });
  after(() => h.close());

  test('a rotated client key and admin token serve at once; the old ones are refused', async () => {
    assert.equal(await status(ask('ck-old')), 200);
    assert.equal((await admin(h.url, 'root-token', 'GET', '/admin/routes')).status, 200);

    const report = reloadWith(withKeys(rolesConfig(h.fleet), ['ck-new', 'ck-spare'], 'root-new'));
    assert.deepEqual([report.ok, report.applied, report.restartNeeded], [true, ['server.clientKeys', 'server.adminTokens'], []]);
    assert.equal(await status(ask('ck-old')), 401, 'the old key no longer serves');
    assert.equal(await status(ask('ck-new')), 200);
    assert.equal(await status(ask('ck-spare')), 200);
    assert.equal((await admin(h.url, 'root-token', 'GET', '/admin/routes')).status, 401, 'the old admin token no longer serves');
    assert.equal((await admin(h.url, 'root-new', 'GET', '/admin/routes')).status, 200);

    const [audited] = h.gateway.store.audit(1, { type: 'config_reloaded' });
    assert.deepEqual(audited!.detail.applied, ['server.clientKeys', 'server.adminTokens']);
    assert.doesNotMatch(JSON.stringify(h.gateway.store.audit(100)), /ck-new|ck-spare|root-new/, 'no key is written down');
  });

  test('keys apply with the rest of the server section waiting for a restart', async () => {
    const text = withKeys(rolesConfig(h.fleet), ['ck-third'], 'root-new').replace('server: {', 'server: { bodyLimit: 2048,');
    const report = reloadWith(text);
    assert.deepEqual([report.ok, report.applied, report.restartNeeded], [true, ['server.clientKeys'], ['server']]);
    assert.equal(h.gateway.config.server.bodyLimit, 4 * 1024 * 1024, 'the body limit keeps its running value');
    assert.equal(await status(ask('ck-third')), 200);
    assert.equal(await status(ask('ck-new')), 401);
  });
});

test('listening beyond loopback, a reload that removes the last client key is refused and the keys keep serving', async () => {
  const yaml = (keys: string[]) => `
server: { clientKeys: ${JSON.stringify(keys)} }
providers:
  alpha: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }
models:
  chat-main: { provider: alpha, model: m }
`;
  const gateway = createGateway(parseConfig(yaml(['ck-only']), 'test', {}), { log: createLogger({ level: 'silent' }), processMetrics: false, store: new MemoryStore(), canarySchedule: false });
  // Every address: the gateway is reached on 127.0.0.1 only, and it never serves without a key.
  const url = (await gateway.listen(0, '0.0.0.0')).replace('0.0.0.0', '127.0.0.1');
  try {
    const report = gateway.reload(() => parseConfig(yaml([]), 'test', {}), 'test');
    assert.equal(report.ok, false);
    assert.equal(report.issues[0]?.path, 'server.clientKeys');
    assert.match(report.issues[0]!.message, /would open it to anyone/);
    assert.equal((await fetch(`${url}/v1/models`)).status, 401, 'still closed without a key');
    assert.equal((await fetch(`${url}/v1/models`, { headers: { authorization: 'Bearer ck-only' } })).status, 200);
  } finally {
    await gateway.close();
  }
});
