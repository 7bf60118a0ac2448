// The dashboard's server side over real sockets: its page files (no token, strict headers),
// and GET /admin/dashboard, the one call the page makes per poll (admin token required).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fleet } from '../../src/sim/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const TOKEN = 'dash-snapshot-token';
const config = (fleet: Fleet) => `
server: { adminToken: "${TOKEN}", dashboardSample: 200ms }
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
  direct:     { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}" }
models:
  chat-main:  { provider: openrouter, model: deepseek/deepseek-chat, profile: { price: { input: 0.3, output: 1.2 } } }
  chat-small: { provider: direct, model: gpt-4o-mini }
roles:
  chat:      { tier: degrade, models: [chat-main, chat-small] }
  reasoning: { tier: strict, models: [chat-main] }
blocklist:
  - { route: chat-main@openrouter/Alpha, reason: reviewed incident 42 }
`;

describe('dashboard server side', () => {
  let h: Harness;
  const clock = new ManualClock();
  const admin = async (path: string, token = TOKEN) => {
    const res = await fetch(`${h.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  before(async () => {
    h = await startHarness({ clock, configYaml: config });
  });
  after(() => h.close());

  test('the page and its files are served without a token, with a strict content policy', async () => {
    const page = await fetch(`${h.url}/dashboard`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    const html = await page.text();
    assert.match(html, /src="dashboard\/app\.js"/);
    for (const file of ['app.js', 'app.css', 'charts.js', 'api.js']) {
      const res = await fetch(`${h.url}/dashboard/${file}`);
      assert.equal(res.status, 200, file);
      await res.arrayBuffer();
    }
    assert.match((await fetch(`${h.url}/dashboard/app.js`)).headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal((await fetch(`${h.url}/dashboard/../package.json`)).status, 404);
    assert.equal((await fetch(`${h.url}/dashboard/nope.js`)).status, 404);
    const slash = await fetch(`${h.url}/dashboard/`, { redirect: 'manual' });
    assert.equal(slash.status, 308);
    assert.equal(new URL(slash.headers.get('location')!, `${h.url}/dashboard/`).pathname, '/dashboard');
    assert.equal((await fetch(`${h.url}/dashboard`, { method: 'POST' })).status, 405);
  });

  test('the snapshot needs the admin token', async () => {
    assert.equal((await fetch(`${h.url}/admin/dashboard`)).status, 401);
    const wrong = await admin('/admin/dashboard', 'nope');
    assert.equal(wrong.status, 401);
    assert.ok(!JSON.stringify(wrong.body).includes(TOKEN));
  });

  test('one snapshot holds routes, blocks, the timeline, the counterfactual numbers and the filtered audit', async () => {
    for (let i = 0; i < 3; i++) await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: `Hello ${i}!` }] });
    const added = await fetch(`${h.url}/admin/blocklist`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ route: 'chat-small@direct', reason: 'incident 7', ttl: '2h' }) });
    assert.equal(added.status, 201);

    // The sampler runs on its own timer (200 ms here): wait for the points that saw the requests.
    let snapshot: Record<string, any> = {};
    for (let tries = 0; tries < 100; tries++) {
      snapshot = (await admin('/admin/dashboard?route=chat-small%40direct&limit=5')).body;
      if ((snapshot.timeline.points as any[]).reduce((n, p) => n + (p.requests['chat-main'] ?? 0), 0) >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(snapshot.timeline.everyMs, 200);
    const points = snapshot.timeline.points as any[];
    assert.equal(points.reduce((n, p) => n + (p.requests['chat-main'] ?? 0), 0), 3, 'each request in exactly one interval');

    const routes = new Map((snapshot.routes as any[]).map((r) => [r.id, r]));
    assert.equal(routes.get('chat-main@openrouter/Alpha').state, 'blocked');
    assert.deepEqual(routes.get('chat-main@openrouter/Alpha').layers, ['builtin']);
    assert.equal(routes.get('chat-small@direct').state, 'blocked');
    assert.equal(snapshot.at, clock.now(), 'times are the gateway\'s clock');
    assert.equal(routes.get('chat-small@direct').until, clock.now() + 2 * 3_600_000);
    assert.deepEqual((snapshot.blocks as any[]).map((b) => [b.route, b.reason]), [['chat-small@direct', 'incident 7']]);

    const roles = new Map((snapshot.counterfactuals.roles as any[]).map((r) => [r.role, r]));
    assert.equal(roles.get('chat').requests, 3);
    assert.equal(roles.get('chat').tier, 'degrade');
    assert.equal(roles.get('reasoning').tier, 'strict');
    assert.ok(roles.get('chat').costUsd > 0, 'cost from usage and the configured price');

    assert.deepEqual(snapshot.audit.query, { route: 'chat-small@direct', limit: 5 });
    assert.deepEqual((snapshot.audit.events as any[]).map((e) => e.type), ['block_added']);
    assert.equal(snapshot.canary, null);
  });

  test('the roles as they serve: a runtime change shows as overlay with who, when and why, the tiers follow it, a rollout shows its arms', async () => {
    const send = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${h.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(res.ok, true, `${method} ${path}: ${await res.text()}`);
    };
    const roles = async () => {
      const snapshot = (await admin('/admin/dashboard')).body;
      return { snapshot, byName: new Map((snapshot.roles.roles as any[]).map((r) => [r.name, r])) };
    };
    let { snapshot, byName } = await roles();
    for (const b of snapshot.blocks as any[]) await send('DELETE', `/admin/blocklist/${b.id}`, {});
    assert.deepEqual(byName.get('chat'), { name: 'chat', tier: 'degrade', models: ['chat-main', 'chat-small'], checks: [], thinking: 'auto', escalation: null, source: 'yaml', added: false, yamlModels: null, change: null, rollout: null });
    assert.deepEqual(snapshot.roles.models, ['chat-main', 'chat-small']);
    assert.deepEqual(snapshot.roles.overlay, { updatedAt: null, updatedBy: null, rejected: null });

    await send('PATCH', '/admin/roles/reasoning', { tier: 'degrade', models: ['chat-small', 'chat-main'], reason: 'strict 503s during incident 7' });
    ({ snapshot, byName } = await roles());
    const reasoning = byName.get('reasoning');
    assert.equal(reasoning.source, 'overlay');
    assert.equal(reasoning.tier, 'degrade');
    assert.deepEqual(reasoning.models, ['chat-small', 'chat-main']);
    assert.deepEqual(reasoning.yamlModels, ['chat-main']);
    assert.deepEqual(reasoning.change, { at: clock.now(), by: 'admin', reason: 'strict 503s during incident 7' });
    const numbers = (snapshot.counterfactuals.roles as any[]).find((r) => r.role === 'reasoning');
    assert.equal(numbers.tier, 'degrade', 'the counterfactual numbers follow the runtime tier');
    assert.equal(numbers.strictUnavailableRate, null);

    await send('POST', '/admin/roles/chat/rollout', { candidate: 'chat-small', weight: 50, reason: 'try the small one' });
    for (let i = 0; i < 6; i++) await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: `Hi ${i}` }] }, { headers: { 'x-warden-sticky': `user-${i}` } });
    ({ byName } = await roles());
    const rollout = byName.get('chat').rollout;
    assert.equal(byName.get('chat').source, 'overlay');
    assert.equal(rollout.candidate, 'chat-small');
    assert.deepEqual(rollout.arms.map((a: any) => [a.model, a.weight]), [['chat-small', 50], ['chat-main', 50]]);
    assert.equal(rollout.arms.reduce((n: number, a: any) => n + a.requests, 0), 6, 'each request on one arm');
    assert.ok(rollout.arms.every((a: any) => 'fallbackRate' in a && 'qualityFailureRate' in a && 'latencyP50Ms' in a && 'costUsd' in a));
    assert.deepEqual(rollout.started, { at: clock.now(), by: 'admin', reason: 'try the small one' });

    await send('POST', '/admin/roles/chat/rollout/rollback', { reason: 'enough' });
    await send('DELETE', '/admin/roles/overlay', { reason: 'back to the YAML' });
    ({ snapshot, byName } = await roles());
    assert.deepEqual([...byName.values()].map((r) => [r.name, r.source, r.tier, r.rollout]), [['chat', 'yaml', 'degrade', null], ['reasoning', 'yaml', 'strict', null]]);
    assert.equal((snapshot.counterfactuals.roles as any[]).find((r) => r.role === 'reasoning').tier, 'strict');
  });
});
