// A route that leaves service (blocked, shed) takes no new request at once, whatever named
// it: a role answers per its tier, a model or route id named directly gets a 503 saying the
// route is out of service, and a pinned route id never answers from another endpoint.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { Fleet } from '../../src/sim/index.js';
import { ManualClock } from '../helpers/clock.js';
import { gatewayConfigYaml, startHarness, type Harness } from '../helpers/harness.js';

const TOKEN = 'adm-oos-token';
// The harness's fleet and config (chat: degrade over chat-main's endpoints and chat-small;
// intent: default over chat-small), with Gamma on the built-in blocklist.
const config = (fleet: Fleet) => `
server: { adminToken: "${TOKEN}", drainWindow: 50ms }
breaker: { failures: 2, cooldown: 30s }
${gatewayConfigYaml(fleet, 'blocklist:\n  - { route: chat-main@openrouter/Gamma, reason: "measured: stray tokens" }')}`;

const HELLO = [{ role: 'user' as const, content: 'Hello!' }];

describe('routes out of service', () => {
  let h: Harness;
  const clock = new ManualClock();
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${h.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    assert.ok(res.ok, `${method} ${path}: ${res.status}`);
    return (await res.json()) as Record<string, any>;
  };
  const upstreamRequests = () => h.fleet.stats().requests;

  /** Sends `model` and expects the 503 saying `route` is out of service; returns its headers. */
  async function rejectedOutOfService(model: string, route: string): Promise<Headers> {
    let headers: Headers | undefined;
    await assert.rejects(h.client.chat.completions.create({ model, messages: HELLO }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.APIError, String(e));
      assert.equal(e.status, 503);
      assert.equal(e.code, 'route_unavailable', 'a model named directly is not a role');
      assert.ok(e.message.includes(`route ${route} is out of service`), e.message);
      assert.equal(e.headers?.get('x-warden-route'), route);
      headers = e.headers;
      return true;
    });
    return headers!;
  }

  /** A direct route out of service: the default role answers its default, named directly it is a 503, and the fleet sees nothing. */
  async function assertOutOfService(route: string): Promise<void> {
    const before = upstreamRequests();
    const { data, response } = await h.client.chat.completions.create({ model: 'intent', messages: HELLO }).withResponse();
    assert.equal(response.headers.get('x-warden-default'), 'true');
    assert.equal(data.choices[0]!.message.content, '{"intent":"chitchat"}');
    for (const model of ['chat-small', route]) await rejectedOutOfService(model, route);
    assert.equal(upstreamRequests(), before, `no request reaches the fleet while ${route} is out of service`);
  }

  before(async () => {
    h = await startHarness({ configYaml: config, clock });
  });
  after(() => h.close());

  test('a blocked direct route takes no request, from a role or named directly', async () => {
    const block = await admin('POST', '/admin/blocklist', { route: 'chat-small@direct', reason: 'incident' });
    await assertOutOfService('chat-small@direct');
    await admin('DELETE', `/admin/blocklist/${block.id}`);
    const { response } = await h.client.chat.completions.create({ model: 'chat-small', messages: HELLO }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'chat-small@direct');
  });

  test('a block whose ttl ran out leaves the store and the listing, and takes no room there', async () => {
    const lapsing = await admin('POST', '/admin/blocklist', { route: 'chat-small@direct', reason: 'brief incident', ttl: '10m' });
    await assertOutOfService('chat-small@direct');
    clock.advance(10 * 60_000 + 1);
    const { response } = await h.client.chat.completions.create({ model: 'chat-small', messages: HELLO }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'chat-small@direct', 'back in service at its end');
    assert.deepEqual(h.gateway.store.blocks().map((b) => b.id), [lapsing.id], 'still stored until something reads or adds blocks');
    // Adding a block is when the store could grow: the lapsed one goes first.
    const next = await admin('POST', '/admin/blocklist', { route: 'chat-small@direct', reason: 'another brief incident', ttl: '10m' });
    assert.deepEqual(h.gateway.store.blocks().map((b) => b.id), [next.id]);
    clock.advance(10 * 60_000 + 1);
    assert.deepEqual((await admin('GET', '/admin/blocklist')).entries, [], 'a lapsed block is not listed');
    assert.deepEqual(h.gateway.store.blocks(), []);
  });

  test('a shed direct route takes no request, from a role or named directly', async () => {
    await admin('POST', `/admin/routes/${encodeURIComponent('chat-small@direct')}/shed`, { reason: 'provider incident' });
    await assertOutOfService('chat-small@direct');
    await admin('POST', `/admin/routes/${encodeURIComponent('chat-small@direct')}/release`, {});
    const { response } = await h.client.chat.completions.create({ model: 'intent', messages: HELLO }).withResponse();
    assert.equal(response.headers.get('x-warden-default'), null);
  });

  test('a route back in service before its drain window ends keeps the requests in flight on it', async () => {
    const route = encodeURIComponent('slow@slowdirect');
    const rest = async (stream: AsyncIterator<OpenAI.ChatCompletionChunk>) => {
      let text = '';
      for (let r = await stream.next(); !r.done; r = await stream.next()) text += r.value.choices[0]?.delta?.content ?? '';
      return text;
    };
    clock.holdSleeps = true;
    try {
      const before = (await h.client.chat.completions.create({ model: 'slow', messages: HELLO, stream: true, max_tokens: 30 }))[Symbol.asyncIterator]();
      await before.next();
      await admin('POST', `/admin/routes/${route}/shed`, { reason: 'brief incident' });
      await admin('POST', `/admin/routes/${route}/release`, {});
      // Taken after the route came back, while the shed's drain window still runs.
      const after = (await h.client.chat.completions.create({ model: 'slow', messages: HELLO, stream: true, max_tokens: 30 }))[Symbol.asyncIterator]();
      await after.next();
      clock.releaseSleeps(); // the drain window ends
      const [a, b] = await Promise.all([rest(before), rest(after)]);
      assert.ok(a.length > 0 && b.length > 0, 'both streams end whole, neither is cut');
    } finally {
      clock.holdSleeps = false;
      clock.releaseSleeps();
    }
  });

  test('a pinned endpoint that is blocked answers 503 and never another endpoint', async () => {
    const before = upstreamRequests();
    await rejectedOutOfService('chat-main@openrouter/Gamma', 'chat-main@openrouter/Gamma');
    assert.equal(upstreamRequests(), before);
  });

  test('a pinned endpoint whose breaker is open answers 503 with Retry-After and never another endpoint', async () => {
    h.fleet.setFaults('Beta', { error503: 1 });
    for (let i = 0; i < 2; i++) {
      await assert.rejects(h.client.chat.completions.create({ model: 'chat-main@openrouter/Beta', messages: HELLO }), OpenAI.InternalServerError);
    }
    assert.equal(h.gateway.breakers.state('chat-main@openrouter/Beta'), 'open');
    const before = upstreamRequests();
    const headers = await rejectedOutOfService('chat-main@openrouter/Beta', 'chat-main@openrouter/Beta');
    assert.equal(headers.get('retry-after'), '30');
    assert.equal(upstreamRequests(), before);
    h.fleet.setFaults('Beta', {});
    clock.advance(30_001);
    const { response } = await h.client.chat.completions.create({ model: 'chat-main@openrouter/Beta', messages: HELLO }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'chat-main@openrouter/Beta', 'the recovery probe is the pinned request itself');
    assert.equal(h.gateway.breakers.state('chat-main@openrouter/Beta'), 'closed');
  });

  test('an endpoint the model does not have is a local 404 naming the route id', async () => {
    const before = upstreamRequests();
    await assert.rejects(h.client.chat.completions.create({ model: 'chat-main@openrouter/Nope', messages: HELLO }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.NotFoundError, String(e));
      assert.equal(e.code, 'model_not_found');
      assert.match(e.message, /chat-main@openrouter\/Nope/);
      return true;
    });
    assert.equal(upstreamRequests(), before);
  });
});
