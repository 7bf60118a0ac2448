// Bad input gets a clear OpenAI-shaped error, never a crash; upstream failures are named.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { abortStreamAfterFirstChunk, gatewayConfigYaml, startHarness, type Harness } from '../helpers/harness.js';

const HELLO = [{ role: 'user' as const, content: 'Hello there' }];

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { error: { message: string; type: string; code: string | null; param: string | null } } };
}

describe('bad input', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ configYaml: (fleet) => gatewayConfigYaml(fleet).replace('providers:', 'server: { bodyLimit: 2048 }\nproviders:') });
  });
  after(() => h.close());

  test('malformed JSON is a 400 invalid_request_error', async () => {
    const r = await post(h.url, '{"model": "chat", "messages": [');
    assert.equal(r.status, 400);
    assert.equal(r.body.error.type, 'invalid_request_error');
    assert.equal(r.body.error.code, 'invalid_json');
    assert.match(r.body.error.message, /not valid JSON/);
  });

  test('missing fields are named', async () => {
    const noModel = await post(h.url, JSON.stringify({ messages: HELLO }));
    assert.equal(noModel.status, 400);
    assert.equal(noModel.body.error.param, 'model');
    const noMessages = await post(h.url, JSON.stringify({ model: 'chat', messages: [] }));
    assert.equal(noMessages.status, 400);
    assert.equal(noMessages.body.error.param, 'messages');
    const notObject = await post(h.url, '[1,2]');
    assert.equal(notObject.status, 400);
  });

  test('a body over the limit is a 413', async () => {
    const r = await post(h.url, JSON.stringify({ model: 'chat', messages: [{ role: 'user', content: 'x'.repeat(4000) }] }));
    assert.equal(r.status, 413);
    assert.equal(r.body.error.code, 'body_too_large');
  });

  test('an unknown model or role is a 404 model_not_found', async () => {
    await assert.rejects(h.client.chat.completions.create({ model: 'chatt', messages: HELLO }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.NotFoundError);
      assert.equal(e.code, 'model_not_found');
      assert.match(e.message, /"chatt"/);
      return true;
    });
  });

  test('requests node:http refuses before Warden reads them still get OpenAI-shaped errors', async () => {
    // Headers over node's 16 KB limit: the openai client, like any, reads the body for the message.
    const big = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-note': 'n'.repeat(20_000) }, body: '{}' });
    assert.equal(big.status, 431);
    const bigBody = (await big.json()) as { error: { type: string; code: string; message: string } };
    assert.equal(bigBody.error.type, 'invalid_request_error');
    assert.equal(bigBody.error.code, 'headers_too_large');
    assert.match(bigBody.error.message, /16 KB/);
    // Not HTTP at all, on a raw socket.
    const { connect } = await import('node:net');
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(h.url).port), '127.0.0.1', () => socket.write('HELLO THERE\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 400 Bad Request\r\n/);
    const json = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { error: { code: string } };
    assert.equal(json.error.code, 'malformed_http');
    // The gateway still answers afterwards.
    assert.equal((await fetch(`${h.url}/healthz`)).status, 200);
  });

  test('unknown paths and methods get OpenAI-shaped errors', async () => {
    const res = await fetch(`${h.url}/v1/nothing`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
    const get = await fetch(`${h.url}/v1/chat/completions`);
    assert.equal(get.status, 405);
  });

  test('the gateway still serves after all of that', async () => {
    const ok = await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
    assert.ok(ok.choices[0]!.message.content);
  });
});

describe('OpenRouter routing preferences in the request', () => {
  let h: Harness;
  // A blocked endpoint makes Warden merge its own provider.ignore into the client's.
  before(async () => {
    h = await startHarness({ configYaml: (fleet) => gatewayConfigYaml(fleet, 'blocklist:\n  - { route: chat-main@openrouter/Alpha, reason: test }') });
  });
  after(() => h.close());

  const send = (provider: unknown) => {
    const body: OpenAI.ChatCompletionCreateParamsNonStreaming & { provider: unknown } = { model: 'chat', messages: HELLO, provider };
    return h.client.chat.completions.create(body);
  };
  const refused = (param: string, message: RegExp) => (e: unknown) => {
    assert.ok(e instanceof OpenAI.BadRequestError, `expected a 400, got ${String(e)}`);
    assert.equal(e.status, 400);
    assert.equal(e.type, 'invalid_request_error');
    assert.equal(e.param, param);
    assert.match(e.message, message);
    return true;
  };

  for (const field of ['ignore', 'order', 'only']) {
    test(`a provider.${field} that is not an array of strings is a 400 naming it`, async () => {
      await assert.rejects(send({ [field]: 'DeepInfra' }), refused(`provider.${field}`, /array of provider names/));
      await assert.rejects(send({ [field]: ['Beta', 7] }), refused(`provider.${field}`, /array of provider names/));
    });
  }

  test('a provider.allow_fallbacks that is not a boolean is a 400 naming it', async () => {
    await assert.rejects(send({ allow_fallbacks: 'no' }), refused('provider.allow_fallbacks', /boolean/));
  });

  test('valid preferences still pass, merged with the blocked endpoint', async () => {
    const ok = await send({ ignore: ['Beta'], order: ['Gamma'], allow_fallbacks: true, sort: 'price' });
    assert.ok(ok.choices[0]!.message.content);
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { ignore: ['Beta', 'alpha'], order: ['Gamma'], allow_fallbacks: true, sort: 'price' });
    // Null is how SDKs send an unset field; OpenRouter takes it as absent.
    await send({ ignore: null, order: null, only: null, allow_fallbacks: null });
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { ignore: ['alpha'], order: null, only: null, allow_fallbacks: null });
  });
});

describe('client keys', () => {
  let h: Harness;
  before(async () => {
    process.env.TEST_CLIENT_KEY = 'ck-test-123';
    h = await startHarness({
      clientKey: 'ck-test-123',
      configYaml: (fleet) => gatewayConfigYaml(fleet).replace('providers:', 'server: { clientKeys: ["ck-test-123"] }\nproviders:'),
    });
  });
  after(() => h.close());

  test('a missing or wrong client key is a 401, the right one passes', async () => {
    const missing = await post(h.url, JSON.stringify({ model: 'chat', messages: HELLO }));
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.type, 'authentication_error');
    const wrong = await post(h.url, JSON.stringify({ model: 'chat', messages: HELLO }), { authorization: 'Bearer nope' });
    assert.equal(wrong.status, 401);
    assert.ok(!JSON.stringify(wrong.body).includes('ck-test-123'));
    const ok = await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
    assert.ok(ok.choices[0]!.message.content);
  });

  test('the scheme name is case-insensitive; another scheme or a bare one is a 401', async () => {
    const body = JSON.stringify({ model: 'chat', messages: HELLO });
    for (const authorization of ['bearer ck-test-123', 'BEARER ck-test-123', 'Bearer\tck-test-123', 'Bearer   ck-test-123  ']) {
      assert.equal((await post(h.url, body, { authorization })).status, 200, authorization);
    }
    for (const authorization of ['Basic ck-test-123', 'Bearerck-test-123', 'Bearer ', 'ck-test-123']) {
      assert.equal((await post(h.url, body, { authorization })).status, 401, authorization);
    }
  });
});

describe('upstream failures', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      configYaml: (fleet) =>
        gatewayConfigYaml(fleet)
          // One failure per test on the same route: its breaker must not open between them, as
          // an open breaker's route takes no request and the next test would see a 503.
          // The limits are wall-clock: wide enough that a loaded machine answers a healthy request
          // within them, while the upstream that hangs, or streams for 20 s, stays far beyond.
          .replace('chat-small: { provider: direct, model: gpt-4o-mini }', 'chat-small: { provider: direct, model: gpt-4o-mini, timeouts: { firstByte: 3s }, breaker: { failures: 100 } }')
          .replace('roles:', '  slowcapped: { provider: slowdirect, model: slow/model, timeouts: { firstToken: 3s, total: 5s } }\nroles:'),
    });
  });
  after(() => h.close());
  beforeEach(() => {
    h.fleet.reset();
    h.fleet.setFaults('small', {});
  });

  test('an upstream 4xx is passed through with its status and body', async () => {
    const r = await post(h.url, JSON.stringify({ model: 'chat-small', messages: HELLO, max_tokens: -5 }));
    assert.equal(r.status, 400);
    assert.equal(r.body.error.type, 'invalid_request_error');
    assert.match(r.body.error.message, /max_tokens/);
    assert.equal(r.headers.get('x-warden-route'), 'chat-small@direct');
  });

  test('an upstream 5xx is a 502 naming the route and the upstream status', async () => {
    h.fleet.setFaults('small', { error503: 1 });
    const r = await post(h.url, JSON.stringify({ model: 'chat-small', messages: HELLO }));
    assert.equal(r.status, 502);
    assert.equal(r.body.error.code, 'upstream_error');
    assert.match(r.body.error.message, /chat-small@direct answered 503/);
  });

  test('an upstream 429 is passed through with Retry-After', async () => {
    h.fleet.setFaults('small', { rateLimit: 1 });
    const r = await post(h.url, JSON.stringify({ model: 'chat-small', messages: HELLO }));
    assert.equal(r.status, 429);
    assert.ok(r.headers.get('retry-after'));
  });

  test('a 200 with garbage is a 502 with the reason, streaming or not', async () => {
    h.fleet.setFaults('small', { garbage: 1 });
    const r = await post(h.url, JSON.stringify({ model: 'chat-small', messages: HELLO }));
    assert.equal(r.status, 502);
    assert.equal(r.body.error.code, 'upstream_invalid_response');
    assert.match(r.body.error.message, /not a chat completion/);
    const s = await post(h.url, JSON.stringify({ model: 'chat-small', messages: HELLO, stream: true }));
    assert.equal(s.status, 502);
    assert.equal(s.body.error.code, 'upstream_invalid_response');
  });

  test('a connection cut mid-body is a 502; mid-stream it ends with an SSE error event', async () => {
    h.fleet.setFaults('small', { reset: 1 });
    const r = await post(h.url, JSON.stringify({ model: 'chat-small', messages: HELLO }));
    assert.equal(r.status, 502);
    assert.equal(r.body.error.code, 'upstream_connection_lost');

    const stream = await h.client.chat.completions.create({ model: 'chat-small', messages: HELLO, stream: true });
    let text = '';
    await assert.rejects(
      async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      },
      (e: unknown) => {
        assert.ok(e instanceof OpenAI.APIError);
        assert.match(e.message, /chat-small@direct/);
        return true;
      },
    );
    assert.ok(text.length > 0, 'the part before the cut reached the client');
  });

  test('an upstream that never answers hits the first-byte timeout: 504', async () => {
    h.fleet.setFaults('small', { hang: 1 });
    const r = await post(h.url, JSON.stringify({ model: 'chat-small', messages: HELLO }));
    assert.equal(r.status, 504);
    assert.equal(r.body.error.code, 'upstream_timeout_first_byte');
    await h.fleet.waitFor((s) => s.openRequests === 0);
  });

  test('a stream whose first token does not come in time is a 504, and the upstream is let go', async () => {
    const r = await post(h.url, JSON.stringify({ model: 'late', messages: HELLO, stream: true }));
    assert.equal(r.status, 504);
    assert.equal(r.body.error.code, 'upstream_timeout_first_token');
    assert.match(r.body.error.message, /late@latedirect/);
    await h.fleet.waitFor((s) => s.openRequests === 0);
  });

  test('a stream whose first token came in time is still bounded by the total timeout', async () => {
    // The first-token deadline and the total share one timer, set again for the rest of the
    // total once the first token beats it: the stream must still be cut at the total.
    const res = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slowcapped', messages: HELLO, stream: true }),
    });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.match(text, /"content":"[^"]+"/, 'tokens were streamed before the cut');
    assert.match(text, /"code":"upstream_timeout_total"/);
    assert.doesNotMatch(text, /\[DONE\]/);
    await h.fleet.waitFor((s) => s.openRequests === 0);
  });

  test('a plain request is bounded by the total timeout', async () => {
    const r = await post(h.url, JSON.stringify({ model: 'late', messages: HELLO }));
    assert.equal(r.status, 504);
    assert.equal(r.body.error.code, 'upstream_timeout_total');
  });

  test('an unreachable upstream is a 502 with an OpenAI-shaped body', async () => {
    const closed = await startHarness({
      configYaml: () => `
providers:
  nowhere: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }
models:
  lost: { provider: nowhere, model: m }
`,
    });
    try {
      const r = await post(closed.url, JSON.stringify({ model: 'lost', messages: HELLO }));
      assert.equal(r.status, 502);
      assert.equal(r.body.error.code, 'upstream_connect_failed');
      assert.equal(r.body.error.type, 'upstream_error');
    } finally {
      await closed.close();
    }
  });
});

describe('an upstream pool that is already closed', () => {
  test('undici refuses inside dispatch(): a direct model answers 502, a role answers from its tier, the gateway keeps serving', async () => {
    // undici calls the handler's error hook before dispatch() returns on a destroyed pool;
    // the execution must take that result only once the attempt is in place.
    const h = await startHarness();
    try {
      assert.equal((await post(h.url, JSON.stringify({ model: 'chat-small', messages: HELLO }))).status, 200);
      const model = h.gateway.catalog.get('chat-small');
      assert.ok(model?.dispatcher, 'the first request looked the pool up');
      await model.dispatcher.destroy();
      const direct = await post(h.url, JSON.stringify({ model: 'chat-small', messages: HELLO }));
      assert.equal(direct.status, 502);
      assert.equal(direct.body.error.type, 'upstream_error');
      assert.equal(direct.headers.get('x-warden-route'), 'chat-small@direct');
      const role = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'intent', messages: HELLO }) });
      assert.equal(role.status, 200);
      assert.equal(role.headers.get('x-warden-default'), 'true');
      const answer = (await role.json()) as { choices: Array<{ message: { content: string } }> };
      assert.equal(answer.choices[0]?.message.content, '{"intent":"chitchat"}');
      assert.equal((await fetch(`${h.url}/healthz`)).status, 200);
    } finally {
      await h.close();
    }
  });

  test('after such a refusal the fallback attempt is the one a client abort stops', async () => {
    // Had the refused attempt's exchange been stored after the fallback's, the abort would
    // reach the dead exchange and the slow stream would run on upstream.
    // (The extra line lands under the harness's `roles:`; a connect timeout of its own gives
    // `slow` a pool of its own, since every simulated provider shares the fleet's origin.)
    const yaml = (fleet: Parameters<typeof gatewayConfigYaml>[0]) => gatewayConfigYaml(fleet, '  slowchain: { tier: degrade, models: [chat-small, slow] }').replace('timeouts: { firstByte: 2s }', 'timeouts: { firstByte: 2s, connect: 3s }');
    const h = await startHarness({ configYaml: yaml });
    try {
      assert.equal((await post(h.url, JSON.stringify({ model: 'chat-small', messages: HELLO }))).status, 200);
      await h.gateway.catalog.get('chat-small')!.dispatcher!.destroy();
      const stats = await abortStreamAfterFirstChunk(h, 'slowchain');
      assert.equal(stats.openStreams, 0);
      assert.equal(stats.providers.Slow?.streams, 1);
    } finally {
      await h.close();
    }
  });
});
