// A stream that goes wrong after its first token (the answer is committed, bytes are relayed
// raw): garbage from the upstream must not reach the client, and the stream must end with
// exactly one error event — Warden's for garbage, the upstream's own when it sent one. Either
// way the attempt counts as failed, not `ok`.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { gatewayConfigYaml, SCENARIO, startHarness, type Harness } from '../helpers/harness.js';
import { metricsText, seriesValue } from '../helpers/metrics.js';
import { sseChunk, startScriptedUpstream, type Script, type ScriptedUpstream } from '../helpers/scripted-upstream.js';

const HELLO = [{ role: 'user' as const, content: 'Hello there' }];

/** The `data:` payloads of a raw SSE body, in order. */
function dataEvents(body: string): string[] {
  return body
    .split(/\r?\n\r?\n/)
    .flatMap((event) => event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()))
    .filter((data) => data.length > 0);
}

const errorEvents = (body: string) => dataEvents(body).filter((data) => data.startsWith('{') && 'error' in (JSON.parse(data) as object));

async function rawStream(url: string, model: string): Promise<string> {
  const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: HELLO, stream: true }) });
  assert.equal(res.status, 200);
  return res.text();
}

/** Streams through the openai client; resolves with the text read and the error the iteration threw. */
async function sdkStream(client: OpenAI, model: string, onText: (text: string) => void = () => {}): Promise<{ text: string; error: unknown }> {
  const stream = await client.chat.completions.create({ model, messages: HELLO, stream: true });
  let text = '';
  try {
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      onText(text);
    }
  } catch (error) {
    return { text, error };
  }
  return { text, error: null };
}


describe('garbage from the simulated fleet', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      // Five tokens a second: the garbage comes 0.4 s after the first token, in a later chunk.
      scenario: { ...SCENARIO, providers: { ...SCENARIO.providers, Paced: { models: ['paced/model'], tokensPerSecond: 5 } } },
      configYaml: (fleet) =>
        gatewayConfigYaml(fleet, '  checked: { tier: degrade, models: [paced], checks: [nonempty] }\n  nothink: { tier: degrade, models: [paced], thinking: off }')
          .replace('models:', `  paceddirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Paced')}" }\nmodels:\n  paced: { provider: paceddirect, model: paced/model }`)
          // Every failure of these tests lands on one route: its breaker must stay closed to count them.
          .replace('providers:', 'breaker: { failures: 1000, minCalls: 1000 }\nproviders:'),
    });
  });
  after(() => h.close());
  beforeEach(() => {
    h.fleet.reset();
    h.fleet.setFaults('small', { streamGarbage: 1 });
    h.fleet.setFaults('Paced', { streamGarbage: 1 });
  });

  test('in the same chunk as the first token: nothing was sent yet, so it is a 502 like garbage before it', async () => {
    const res = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'chat-small', messages: HELLO, stream: true }) });
    assert.equal(res.status, 502);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'upstream_invalid_response');
  });

  // The paced provider writes each token on its own, the garbage after the third: the answer is
  // committed by then. Bytes relayed raw (a model named directly), relayed raw and read for the
  // gate (a role with checks), and re-encoded (thinking off strips reasoning fields from every chunk).
  for (const [model, label] of [['paced', '-'], ['checked', 'checked'], ['nothink', 'nothink']] as const) {
    test(`${model}, after the first token: the client gets the content, then Warden's error event instead of the garbage; the attempt failed`, async () => {
      const failuresBefore = h.gateway.breakers.snapshot('paced@paceddirect')?.consecutiveFailures ?? 0;

      const { text, error } = await sdkStream(h.client, model);
      assert.ok(text.length > 0, 'the content before the garbage reached the client');
      assert.ok(error instanceof OpenAI.APIError, `an APIError, not ${String(error)}`);
      assert.equal(error.code, 'upstream_invalid_response');
      assert.match(error.message, /paced@paceddirect/);

      const body = await rawStream(h.url, model);
      const events = dataEvents(body);
      for (const data of events) assert.doesNotThrow(() => JSON.parse(data), `only JSON reaches the client, not ${data}`);
      assert.equal(errorEvents(body).length, 1);
      assert.match(events.at(-1)!, /"code":"upstream_invalid_response"/);
      assert.ok(!events.includes('[DONE]'));

      const after = await metricsText(h.url);
      assert.equal(seriesValue(after, `warden_requests_total{role="${label}",route="paced@paceddirect",outcome="stream_error"}`), 2);
      assert.equal(seriesValue(after, `warden_requests_total{role="${label}",route="paced@paceddirect",outcome="ok"}`), 0);
      if (label !== '-') assert.equal(seriesValue(after, `warden_role_requests_total{role="${label}",result="failed"}`), 2);
      assert.equal(h.gateway.breakers.snapshot('paced@paceddirect')?.consecutiveFailures, failuresBefore + 2, 'each garbled stream is a breaker failure');
    });
  }

  test('an upstream error event mid-stream (OpenRouter style, with finish_reason "error") reaches the client alone', async () => {
    h.fleet.setFaults('Paced', { streamError: 1 });
    const failuresBefore = h.gateway.breakers.snapshot('paced@paceddirect')?.consecutiveFailures ?? 0;
    const body = await rawStream(h.url, 'paced');
    assert.deepEqual(errorEvents(body).map((data) => (JSON.parse(data) as { error: { message: string } }).error.message), ['Provider returned error']);
    assert.equal(h.gateway.breakers.snapshot('paced@paceddirect')?.consecutiveFailures, failuresBefore + 1, 'a breaker failure');
  });
});

const OPENAI_ERROR = `data: ${JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } })}\n\n`;
const START = sseChunk({ role: 'assistant', content: '' }) + sseChunk({ content: 'Hello' });

const SCRIPTS: Record<string, Script> = {
  // A valid event and then the garbage, each cut between writes.
  split: async (write, step) => {
    const world = sseChunk({ content: ' world' });
    write(START + world.slice(0, 20));
    await step();
    write(world.slice(20) + 'data: {not');
    await step();
    write(' json\n\ndata: [DONE]\n\n');
  },
  'error-event': async (write) => write(START + OPENAI_ERROR),
  'error-event-done': async (write) => write(START + OPENAI_ERROR + 'data: [DONE]\n\n'),
  // The role chunk, then the response ends cleanly or the connection drops: no content token yet.
  'cut-before-token': async (write) => write(sseChunk({ role: 'assistant', content: '' })),
  'reset-before-token': async (write) => {
    write(sseChunk({ role: 'assistant', content: '' }));
    throw new Error('connection dropped');
  },
  whole: async (write) => write(START + sseChunk({}, 'stop') + 'data: [DONE]\n\n'),
  // JSON, but not a chunk where Warden reads one: the upstream's garbage, not Warden's failure.
  'null-choice': async (write) => write('data: {"id":"c1","object":"chat.completion.chunk","choices":[null]}\n\ndata: [DONE]\n\n'),
  'string-delta': async (write) => write('data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":"Hello"}]}\n\ndata: [DONE]\n\n'),
  'null-event': async (write) => write('data: null\n\ndata: [DONE]\n\n'),
};

describe('a scripted upstream', () => {
  let upstream: ScriptedUpstream;
  let h: Harness;
  before(async () => {
    upstream = await startScriptedUpstream(SCRIPTS);
    h = await startHarness({
      configYaml: () => `
providers:
  scripted: { kind: openai-compatible, baseUrl: "${upstream.baseUrl}" }
models:
  split: { provider: scripted, model: split }
  error-event: { provider: scripted, model: error-event }
  error-event-done: { provider: scripted, model: error-event-done }
  cut-before-token: { provider: scripted, model: cut-before-token }
  reset-before-token: { provider: scripted, model: reset-before-token }
  whole: { provider: scripted, model: whole }
  null-choice: { provider: scripted, model: null-choice }
  string-delta: { provider: scripted, model: string-delta }
  null-event: { provider: scripted, model: null-event }
roles:
  null-choice-early: { tier: degrade, models: [null-choice, whole], checks: [nonempty] }
  string-delta-early: { tier: degrade, models: [string-delta, whole] }
  null-event-early: { tier: degrade, models: [null-event, whole], checks: [nonempty] }
  cut-early: { tier: degrade, models: [cut-before-token, whole] }
  reset-early: { tier: degrade, models: [reset-before-token, whole] }
  checked-split: { tier: degrade, models: [split], checks: [nonempty] }
  nothink-split: { tier: degrade, models: [split], thinking: off }
`,
    });
  });
  after(async () => {
    await h.close();
    await upstream.close();
  });

  for (const model of ['split', 'checked-split', 'nothink-split']) {
    test(`${model}: complete events go out before the next one is whole; garbage cut between chunks is still caught`, { timeout: 15_000 }, async () => {
      // The script writes its next part only once the client has the text before it: a relay
      // that held valid events back until a later chunk would wait here until the timeout.
      const seen: string[] = [];
      const { text, error } = await sdkStream(h.client, model, (t) => {
        if (t === 'Hello' || t === 'Hello world') {
          seen.push(t);
          upstream.go();
        }
      });
      assert.deepEqual(seen, ['Hello', 'Hello world']);
      assert.equal(text, 'Hello world');
      assert.ok(error instanceof OpenAI.APIError, `an APIError, not ${String(error)}`);
      assert.equal(error.code, 'upstream_invalid_response');
      assert.match(error.message, /split@scripted/);
      const label = model === 'split' ? '-' : model;
      assert.equal(seriesValue(await metricsText(h.url), `warden_requests_total{role="${label}",route="split@scripted",outcome="stream_error"}`), 1);
    });
  }

  // Without a hold-back window nothing goes out before the first content token: a stream lost
  // before it is a failed attempt, and the next route answers.
  for (const [role, route] of [['cut-early', 'cut-before-token@scripted'], ['reset-early', 'reset-before-token@scripted']] as const) {
    test(`${role}: a stream lost before its first token falls back, the client sees only the fallback`, async () => {
      const { data, response } = await h.client.chat.completions.create({ model: role, messages: HELLO, stream: true }).withResponse();
      let text = '';
      for await (const chunk of data) text += chunk.choices[0]?.delta?.content ?? '';
      assert.equal(text, 'Hello');
      assert.deepEqual([response.headers.get('x-warden-route'), response.headers.get('x-warden-fallback')], ['whole@scripted', `transport:upstream_connection_lost at ${route}`]);
      assert.equal(h.gateway.breakers.snapshot(route)?.consecutiveFailures, 1);
    });
  }

  // Before the fix these threw inside Warden's reading: a 500 internal_error, the route not blamed, no fallback.
  for (const route of ['null-choice', 'string-delta', 'null-event']) {
    test(`${route}: JSON that is not a chunk is the upstream's invalid answer — the role falls back, the route is blamed`, async () => {
      const { data, response } = await h.client.chat.completions.create({ model: `${route}-early`, messages: HELLO, stream: true }).withResponse();
      let text = '';
      for await (const chunk of data) text += chunk.choices[0]?.delta?.content ?? '';
      assert.equal(text, 'Hello');
      assert.deepEqual([response.headers.get('x-warden-route'), response.headers.get('x-warden-fallback')], ['whole@scripted', `transport:upstream_invalid_response at ${route}@scripted`]);
      assert.equal(h.gateway.breakers.snapshot(`${route}@scripted`)?.consecutiveFailures, 1);
    });
  }

  for (const model of ['error-event', 'error-event-done']) {
    test(`${model}: the upstream's own error event mid-stream is the only one the client gets`, async () => {
      const body = await rawStream(h.url, model);
      assert.deepEqual(errorEvents(body).map((data) => (JSON.parse(data) as { error: { message: string } }).error.message), ['The server had an error while processing your request.']);

      const { text, error } = await sdkStream(h.client, model);
      assert.equal(text, 'Hello');
      assert.ok(error instanceof OpenAI.APIError, `an APIError, not ${String(error)}`);
      assert.match(error.message, /The server had an error/);

      const m = await metricsText(h.url);
      assert.equal(seriesValue(m, `warden_requests_total{role="-",route="${model}@scripted",outcome="stream_error"}`), 2);
      // The provider failed under way: each stream is a breaker failure, not a success.
      assert.equal(h.gateway.breakers.snapshot(`${model}@scripted`)?.consecutiveFailures, 2);
    });
  }
});
