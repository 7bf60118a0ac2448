// The proxy end to end: the official openai client → gateway → simulated fleet, over loopback.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { abortStreamAfterFirstChunk, gatewayConfigYaml, startHarness, type Harness } from '../helpers/harness.js';

const HELLO = [{ role: 'user' as const, content: 'Hello! How are you today?' }];

describe('proxy', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());
  beforeEach(() => h.fleet.reset());

  test('non-streaming round trip through a role names the endpoint that served', async () => {
    const { data, response } = await h.client.chat.completions.create({ model: 'chat', messages: HELLO, seed: 1 }).withResponse();
    assert.ok(data.choices[0]!.message.content!.length > 10);
    const served = h.fleet.stats().recent.at(-1)!.served;
    assert.ok(served, 'the fleet says which provider served');
    assert.equal(response.headers.get('x-warden-route'), `chat-main@openrouter/${served}`);
    assert.equal(response.headers.get('x-warden-role'), 'chat');
    assert.equal(response.headers.get('x-warden-attempts'), '1');
    assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  test('streamed text equals the non-streamed text for the same seed', async () => {
    const plain = await h.client.chat.completions.create({ model: 'chat', messages: HELLO, seed: 42 });
    const { data: stream, response } = await h.client.chat.completions.create({ model: 'chat', messages: HELLO, seed: 42, stream: true }).withResponse();
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      chunks++;
    }
    assert.ok(chunks > 3, 'the answer arrived in several chunks');
    assert.equal(text, plain.choices[0]!.message.content);
    assert.match(response.headers.get('x-warden-route') ?? '', /^chat-main@openrouter\/\w+$/);
  });

  test('a model named directly is served by its direct route', async () => {
    const { data, response } = await h.client.chat.completions.create({ model: 'chat-small', messages: HELLO }).withResponse();
    assert.ok(data.choices[0]!.message.content);
    assert.equal(response.headers.get('x-warden-route'), 'chat-small@direct');
    assert.equal(response.headers.get('x-warden-role'), null);
  });

  test('request fields pass through: json_schema, tools, include_usage', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer' } }, required: ['city', 'population'], additionalProperties: false };
    const structured = await h.client.chat.completions.create({
      model: 'chat',
      messages: [{ role: 'user', content: 'Give me a city.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'city', schema, strict: true } },
    });
    const parsed = JSON.parse(structured.choices[0]!.message.content!) as Record<string, unknown>;
    assert.equal(typeof parsed.city, 'string');
    assert.equal(typeof parsed.population, 'number');

    const tooled = await h.client.chat.completions.create({
      model: 'chat-small',
      messages: [{ role: 'user', content: 'What is the weather in Lisbon?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }],
      tool_choice: 'required',
    });
    const call = tooled.choices[0]!.message.tool_calls![0]!;
    assert.equal(call.type === 'function' && call.function.name, 'get_weather');
    assert.equal(tooled.choices[0]!.finish_reason, 'tool_calls');

    const stream = await h.client.chat.completions.create({ model: 'chat', messages: HELLO, stream: true, stream_options: { include_usage: true } });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    assert.ok(usage && usage.completion_tokens > 0, 'the usage chunk was relayed');
  });

  test('naming a route id pins that endpoint with fallbacks off', async () => {
    const { response } = await h.client.chat.completions.create({ model: 'chat-main@openrouter/Gamma', messages: HELLO }).withResponse();
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { order: ['gamma'], allow_fallbacks: false });
    assert.equal(response.headers.get('x-warden-route'), 'chat-main@openrouter/Gamma');
  });

  test('a client that aborts a stream closes the upstream stream', async () => {
    const stats = await abortStreamAfterFirstChunk(h, 'slow');
    assert.equal(stats.openStreams, 0);
  });

  test('a client that gives up before the first token frees the upstream request', async () => {
    h.fleet.setFaults('small', { hang: 1 });
    const controller = new AbortController();
    const pending = h.client.chat.completions.create({ model: 'chat-small', messages: HELLO }, { signal: controller.signal });
    await h.fleet.waitFor((s) => s.openRequests === 1);
    controller.abort();
    await assert.rejects(pending, OpenAI.APIUserAbortError);
    await h.fleet.waitFor((s) => s.openRequests === 0);
    h.fleet.setFaults('small', {});
  });
});

describe('blocklist into provider.ignore', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      configYaml: (fleet) => `${gatewayConfigYaml(fleet)}
blocklist:
  - { route: chat-main@openrouter/Alpha, reason: measured prefix contamination }
`,
    });
  });
  after(() => h.close());

  test('built-in blocklist entries reach OpenRouter as provider.ignore, merged with the client preferences', async () => {
    const { response } = await h.client.chat.completions.create({ model: 'chat', messages: HELLO }).withResponse();
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { ignore: ['alpha'] });
    assert.notEqual(response.headers.get('x-warden-route'), 'chat-main@openrouter/Alpha');

    const body = { model: 'chat', messages: HELLO, provider: { order: ['Gamma'], ignore: ['Beta'], data_collection: 'deny' } };
    const res = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200);
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { order: ['Gamma'], ignore: ['Beta', 'alpha'], data_collection: 'deny' });
    assert.equal(res.headers.get('x-warden-route'), 'chat-main@openrouter/Gamma');
  });

});

describe('discovery, models and operations endpoints', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('OpenRouter endpoints become routes', () => {
    assert.deepEqual(
      h.gateway.catalog.get('chat-main')!.routes.map((r) => r.id),
      ['chat-main@openrouter/Alpha', 'chat-main@openrouter/Beta', 'chat-main@openrouter/Gamma'],
    );
  });

  test('GET /v1/models lists roles and models', async () => {
    const ids: string[] = [];
    for await (const model of h.client.models.list()) ids.push(model.id);
    assert.deepEqual(ids.sort(), ['chat', 'chat-main', 'chat-small', 'intent', 'late', 'slow']);
  });

  test('/healthz, /readyz and /metrics answer', async () => {
    assert.equal((await fetch(`${h.url}/healthz`)).status, 200);
    const ready = await fetch(`${h.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(((await ready.json()) as { checks: Array<{ name: string; ok: boolean }> }).checks.map((c) => [c.name, c.ok]), [['discovery:chat-main', true], ['state:memory', true]]);
    await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
    await h.client.chat.completions.create({ model: 'chat', messages: HELLO, stream: true }).then(async (s) => {
      for await (const _ of s);
    });
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    assert.match(metrics, /warden_requests_total\{role="chat",route="chat-main@openrouter\/\w+",outcome="ok"\} [1-9]/);
    assert.match(metrics, /warden_first_token_seconds_count\{role="chat",route="chat-main@openrouter\/\w+"\} 1/);
    assert.match(metrics, /warden_request_duration_seconds_bucket/);
  });
});
