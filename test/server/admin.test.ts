// The admin API: token, route states, runtime blocklist into provider.ignore, manual shed
// with drain and retry elsewhere, release, and the audit trail of each.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fleet } from '../../src/sim/index.js';
import { SCENARIO, startHarness, type Harness } from '../helpers/harness.js';

const TOKEN = 'adm-test-token-77';
const config = (fleet: Fleet) => `
server: { adminToken: "${TOKEN}", drainWindow: 50ms }
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
  direct:     { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}" }
  latedirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Late')}" }
models:
  chat-main:  { provider: openrouter, model: deepseek/deepseek-chat }
  chat-small: { provider: direct, model: gpt-4o-mini }
  late:       { provider: latedirect, model: late/model }
roles:
  chat:    { tier: degrade, models: [chat-main, chat-small] }
  patient: { tier: degrade, models: [late, chat-small] }
blocklist:
  - { route: chat-main@openrouter/Alpha, reason: reviewed incident 42 }
`;

const HELLO = [{ role: 'user' as const, content: 'Hello!' }];

describe('admin API', () => {
  let h: Harness;
  const admin = async (method: string, path: string, body?: unknown, token = TOKEN) => {
    const res = await fetch(`${h.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: config });
  });
  after(() => h.close());

  test('the admin token is required and never echoed', async () => {
    const missing = await fetch(`${h.url}/admin/routes`);
    assert.equal(missing.status, 401);
    const wrong = await admin('GET', '/admin/routes', undefined, 'nope');
    assert.equal(wrong.status, 401);
    assert.ok(!JSON.stringify(wrong.body).includes(TOKEN));
  });

  test('refused admin calls are not counted as rejected chat requests', async () => {
    const rejected = async () => {
      const text = await (await fetch(`${h.url}/metrics`)).text();
      return text.split('\n').filter((l) => l.startsWith('warden_rejected_requests_total{')).join('\n');
    };
    const before = await rejected();
    assert.equal((await admin('GET', '/admin/routes', undefined, 'nope')).status, 401);
    assert.equal((await admin('GET', '/admin/nothing-here')).status, 404);
    assert.equal((await admin('POST', '/admin/blocklist', { route: 'nope' })).status, 400);
    assert.equal(await rejected(), before, 'no admin refusal counted');
    const chat = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'no-such-role', messages: HELLO }) });
    assert.equal(chat.status, 404);
    assert.match(await rejected(), /warden_rejected_requests_total\{code="model_not_found"\} [1-9]/);
  });

  test('routes show their state and the layer holding them', async () => {
    const { status, body } = await admin('GET', '/admin/routes');
    assert.equal(status, 200);
    const byId = new Map((body.routes as any[]).map((r) => [r.id, r]));
    assert.equal(byId.get('chat-main@openrouter/Alpha').state, 'blocked');
    assert.deepEqual(byId.get('chat-main@openrouter/Alpha').reasons, ['builtin: reviewed incident 42']);
    assert.equal(byId.get('chat-main@openrouter/Beta').state, 'healthy');
    assert.equal(byId.get('chat-small@direct').breaker.state, 'closed');
  });

  test('a runtime block takes effect at once in provider.ignore, and its removal too', async () => {
    const added = await admin('POST', '/admin/blocklist', { route: 'chat-main@openrouter/Beta', reason: 'incident: garbled replies', ttl: '2h' });
    assert.equal(added.status, 201);
    assert.match(added.body.id, /^blk_/);
    await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { ignore: ['alpha', 'beta'] });
    const removed = await admin('DELETE', `/admin/blocklist/${added.body.id}`);
    assert.equal(removed.status, 200);
    await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { ignore: ['alpha'] });
    const events = await admin('GET', '/admin/audit?route=chat-main%40openrouter%2FBeta');
    assert.deepEqual((events.body.events as any[]).map((e) => e.type), ['block_removed', 'block_added']);
  });

  test('bad admin input gets named errors', async () => {
    const unknown = await admin('POST', '/admin/blocklist', { route: 'nope@nowhere', reason: 'x' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'unknown_route');
    const noReason = await admin('POST', '/admin/blocklist', { route: 'chat-small@direct' });
    assert.equal(noReason.status, 400);
    assert.equal(noReason.body.error.param, 'reason');
    const badTtl = await admin('POST', '/admin/blocklist', { route: 'chat-small@direct', reason: 'x', ttl: 'soon' });
    assert.equal(badTtl.status, 400);
    assert.equal(badTtl.body.error.param, 'ttl');
    const zeroTtl = await admin('POST', '/admin/blocklist', { route: 'chat-small@direct', reason: 'x', ttl: '0s' });
    assert.deepEqual([zeroTtl.status, zeroTtl.body.error.code, zeroTtl.body.error.param], [400, 'invalid_ttl', 'ttl']);
    assert.equal((await admin('DELETE', '/admin/blocklist/blk_missing')).status, 404);
    const badSince = await admin('GET', '/admin/audit?since=abc');
    assert.deepEqual([badSince.status, badSince.body.error.param], [400, 'since']);
    assert.equal((await admin('GET', `/admin/audit?since=${Date.now() - 60_000}`)).status, 200);
    for (const ttl of [{ minutes: 5 }, ['30m'], true]) {
      const odd = await admin('POST', '/admin/blocklist', { route: 'chat-small@direct', reason: 'x', ttl });
      assert.deepEqual([odd.status, odd.body.error.param], [400, 'ttl'], `ttl ${JSON.stringify(ttl)}`);
    }
    // A malformed percent escape in a path segment is the caller's mistake, named, not a 500.
    for (const [method, path, param] of [['DELETE', '/admin/blocklist/%E0%A4%A', 'id'], ['POST', '/admin/routes/%ZZ/shed', 'route'], ['GET', '/admin/roles/%ZZ', 'name'], ['PATCH', '/admin/roles/chat%/rollout', 'name']] as const) {
      const bad = await admin(method, path, method === 'GET' ? undefined : { reason: 'x' });
      assert.deepEqual([bad.status, bad.body.error.type, bad.body.error.param], [400, 'invalid_request_error', param], `${method} ${path}`);
    }
  });

  test('a manual shed drains the in-flight request, which is retried elsewhere; release brings the route back', async () => {
    const pending = h.client.chat.completions.create({ model: 'patient', messages: HELLO, stream: true }).withResponse();
    await h.fleet.waitFor((s) => s.providers.Late!.openStreams === 1);
    const shed = await admin('POST', `/admin/routes/${encodeURIComponent('late@latedirect')}/shed`, { reason: 'provider incident' });
    assert.equal(shed.status, 200);
    assert.equal(shed.body.route.state, 'shed');
    const { data: stream, response } = await pending;
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.ok(text.length > 0);
    assert.equal(response.headers.get('x-warden-route'), 'chat-small@direct');
    assert.equal(response.headers.get('x-warden-fallback'), 'shed:route_shed at late@latedirect');
    await h.fleet.waitFor((s) => s.providers.Late!.openStreams === 0);

    const before = h.fleet.stats().providers.Late!.requests;
    await h.client.chat.completions.create({ model: 'patient', messages: HELLO });
    assert.equal(h.fleet.stats().providers.Late!.requests, before, 'a shed route takes no new request');

    const released = await admin('POST', `/admin/routes/${encodeURIComponent('late@latedirect')}/release`);
    assert.equal(released.body.route.state, 'healthy');
    const types = ((await admin('GET', '/admin/audit?limit=10')).body.events as any[]).map((e) => e.type);
    for (const t of ['manual_cleared', 'shed', 'shed_manual']) assert.ok(types.includes(t), `audit has ${t}: ${types}`);
  });
});

describe('admin API: a canary round on demand', () => {
  let h: Harness;
  const run = async (body: unknown) => {
    const res = await fetch(`${h.url}/admin/canary/run`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const rounds = () => h.gateway.store.audit(100, { type: 'canary_round' }).length;
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: (fleet) => `${config(fleet)}canary: { watch: [chat-main], languages: [en] }\n` });
  });
  after(() => h.close());

  test('a route that is not a string is refused by name, and no round runs', async () => {
    for (const route of [123, '', ['chat-main@openrouter/Beta'], { id: 'chat-main@openrouter/Beta' }]) {
      const { status, body } = await run({ route });
      assert.equal(status, 400, JSON.stringify(route));
      assert.equal(body.error.type, 'invalid_request_error');
      assert.equal(body.error.param, 'route');
      assert.match(body.error.message, /"route" must be a route id/);
    }
    assert.equal(rounds(), 0);
  });

  test('an unknown route, or one of a model the canary does not watch, is a 404 naming it', async () => {
    const unknown = await run({ route: 'nope' });
    assert.equal(unknown.status, 404);
    assert.deepEqual([unknown.body.error.type, unknown.body.error.code, unknown.body.error.param], ['not_found_error', 'unknown_route', 'route']);
    assert.match(unknown.body.error.message, /"nope" is not a route of a watched model/);
    const unwatched = await run({ route: 'chat-small@direct' });
    assert.equal(unwatched.status, 404);
    assert.equal(unwatched.body.error.code, 'unknown_route');
    assert.match(unwatched.body.error.message, /"chat-small@direct" is a route of chat-small, which the canary does not watch \(watched: chat-main\)/);
    const gone = await run({ route: 'chat-main@openrouter/Nowhere' });
    assert.equal(gone.status, 404);
    assert.match(gone.body.error.message, /not a route of a watched model/);
    assert.equal(rounds(), 0);
  });

  test('a watched route runs alone', async () => {
    const { status, body } = await run({ route: 'chat-main@openrouter/Beta' });
    assert.equal(status, 200);
    assert.deepEqual(body.routes.map((r: { route: string }) => r.route), ['chat-main@openrouter/Beta']);
  });
});

describe('admin API without a token configured', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('is off, and says how to turn it on', async () => {
    const res = await fetch(`${h.url}/admin/routes`, { headers: { authorization: 'Bearer anything' } });
    assert.equal(res.status, 403);
    assert.match(((await res.json()) as any).error.message, /set server\.adminToken/);
  });
});
