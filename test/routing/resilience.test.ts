// Roles, tiers, breakers, 429 budgets, quality-gated fallback and escalation, end to end:
// the official openai client → gateway (on a hand-moved clock) → simulated fleet.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { Fleet } from '../../src/sim/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';

// One simulated provider per model, so each test owns its routes and breakers.
const PROVIDERS: Record<string, object> = {
  a: {}, b: {}, s1: {}, s2: {}, i1: {}, c1: {}, c2: {}, c3: {}, c4: {},
  r1: { retryAfter: 1 }, r2: { retryAfter: 120 }, fb: {},
  ptweak: { faults: { drift: 1 }, replyTokens: 120 }, other: { replyTokens: 120 }, ptgood: { replyTokens: 120 },
  stray: { faults: { prefix: 1 } }, clean: {}, strong: {}, easy: {}, thinker: { reasoning: true },
};
const SCENARIO = { seed: 11, providers: Object.fromEntries(Object.entries(PROVIDERS).map(([name, spec]) => [name, { models: [`${name}-model`], ...spec }])) };

const PROFILES: Record<string, string> = {
  ptgood: 'profile: { languages: [pt, en] }',
  other: 'profile: { languages: [en] }',
  ptweak: 'profile: { languages: [en] }',
};

// The first-byte limit is wall-clock: wide enough that a loaded machine answers a healthy
// request within it; the probe that hangs stays beyond it for ever.
function config(fleet: Fleet): string {
  const providers = Object.keys(PROVIDERS).map((n) => `  ${n}: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl(n)}" }`).join('\n');
  const models = Object.keys(PROVIDERS).map((n) => `  ${n}: { provider: ${n}, model: ${n}-model, timeouts: { firstByte: 3s }${PROFILES[n] ? `, ${PROFILES[n]}` : ''} }`).join('\n');
  return `
breaker: { failures: 5, cooldown: 30s, maxCooldown: 10m, probeTimeout: 5s }
providers:
${providers}
models:
${models}
roles:
  chat:      { tier: degrade, models: [a, b] }
  reasoning: { tier: strict, models: [s1, s2] }
  intent:    { tier: default, models: [i1], thinking: on, default: { content: '{"intent":"chitchat"}' } }
  budget:    { tier: degrade, models: [c1, c2, c3, c4], maxFallbacks: 2 }
  patient:   { tier: degrade, models: [r1, fb], retry: { maxWait: 5s, budget: 10s } }
  hurried:   { tier: degrade, models: [r2, fb], retry: { maxWait: 5s, budget: 10s } }
  throttled: { tier: strict, models: [r2], retry: { maxWait: 5s, budget: 10s } }
  lusophone: { tier: degrade, models: [ptweak, other, ptgood], checks: [language], language: pt }
  polyglot:  { tier: degrade, models: [ptweak, ptgood], checks: [language] }
  streamy:   { tier: degrade, models: [stray, clean], checks: [prefix, encoding], holdBack: { chars: 60, ms: 2s } }
  smart:     { tier: degrade, models: [easy], escalation: { model: strong, threshold: 0.6, keywords: [prove, 证明] } }
  extraction: { tier: degrade, models: [thinker], thinking: on }
  musing:    { tier: degrade, models: [thinker], thinking: on }
`;
}

const HELLO = [{ role: 'user' as const, content: 'Hello there, how are you?' }];
const served = (fleet: Fleet, provider: string) => fleet.stats().providers[provider]!.requests;

describe('resilience', () => {
  let h: Harness;
  const clock = new ManualClock();
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: config, clock });
  });
  after(() => h.close());
  beforeEach(() => {
    for (const name of Object.keys(PROVIDERS)) h.fleet.setFaults(name, (PROVIDERS[name] as { faults?: object }).faults ?? {});
    h.fleet.reset();
    clock.onSleep = null;
  });

  test('a storm of 400s from a bad prompt passes through and never opens the breaker', async () => {
    for (let i = 0; i < 12; i++) {
      await assert.rejects(h.client.chat.completions.create({ model: 'chat', messages: HELLO, max_tokens: -1 }), OpenAI.BadRequestError);
    }
    assert.equal(h.gateway.breakers.state('a@a'), 'closed');
    assert.equal(served(h.fleet, 'b'), 0, 'a client error is not a reason to fall back');
  });

  test('five 503s open the breaker; the next request goes elsewhere without calling the open route', async () => {
    h.fleet.setFaults('a', { error503: 1 });
    for (let i = 0; i < 5; i++) {
      const { response } = await h.client.chat.completions.create({ model: 'chat', messages: HELLO }).withResponse();
      assert.equal(response.headers.get('x-warden-route'), 'b@b');
      assert.equal(response.headers.get('x-warden-fallback'), 'transport:upstream_status_503 at a@a');
      assert.equal(response.headers.get('x-warden-attempts'), '2');
    }
    assert.equal(h.gateway.breakers.state('a@a'), 'open');
    const opened = h.gateway.store.audit(50).find((e) => e.type === 'breaker_open' && e.route === 'a@a');
    assert.match(String(opened?.detail.cause), /5 consecutive transport failures/);
    h.fleet.reset();
    const { response } = await h.client.chat.completions.create({ model: 'chat', messages: HELLO }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'b@b');
    assert.equal(response.headers.get('x-warden-attempts'), '1');
    assert.equal(served(h.fleet, 'a'), 0);
  });

  test('after the cooldown exactly one of 20 concurrent requests probes the route', async () => {
    assert.equal(h.gateway.breakers.state('a@a'), 'open');
    h.fleet.setFaults('a', { hang: 1 });
    clock.advance(30_001);
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.client.chat.completions.create({ model: 'chat', messages: HELLO }).withResponse()));
    assert.equal(served(h.fleet, 'a'), 1, 'exactly one request reached the half-open route');
    assert.equal(answers.filter((a) => a.response.headers.get('x-warden-route') === 'b@b').length, 20, 'the probe fell back after its timeout; the others never waited');
    assert.equal(h.gateway.breakers.state('a@a'), 'open', 'the failed probe reopened the breaker');
    assert.equal(h.gateway.breakers.snapshot('a@a')!.retryAt! - clock.now(), 60_000, 'the cooldown doubled');
    // The route recovers: the next probe closes the breaker, and traffic returns.
    h.fleet.setFaults('a', {});
    clock.advance(60_001);
    const { response } = await h.client.chat.completions.create({ model: 'chat', messages: HELLO }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'a@a');
    assert.equal(h.gateway.breakers.state('a@a'), 'closed');
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    assert.match(metrics, /warden_breaker_recoveries_total\{route="a@a",first_try="false"\} 1/);
    assert.match(metrics, /warden_breaker_transitions_total\{route="a@a",to="open"\} 2/);
  });

  test('429 with Retry-After 1 is waited out on the same route', async () => {
    h.fleet.setFaults('r1', { rateLimit: 1 });
    clock.onSleep = () => h.fleet.setFaults('r1', {});
    const before = clock.slept.length;
    const { response } = await h.client.chat.completions.create({ model: 'patient', messages: HELLO }).withResponse();
    assert.deepEqual(clock.slept.slice(before), [1000]);
    assert.equal(response.headers.get('x-warden-route'), 'r1@r1');
    assert.equal(served(h.fleet, 'r1'), 2);
    assert.equal(served(h.fleet, 'fb'), 0);
  });

  test('a client that leaves during a 429 wait ends the request there: no retry, no fallback', async () => {
    h.fleet.setFaults('r1', { rateLimit: 1 });
    clock.holdSleeps = true;
    const waiting = new Promise<void>((resolve) => (clock.onSleep = () => resolve()));
    const served0 = { r1: served(h.fleet, 'r1'), fb: served(h.fleet, 'fb') };
    const controller = new AbortController();
    const pending = h.client.chat.completions.create({ model: 'patient', messages: HELLO }, { signal: controller.signal });
    try {
      await waiting;
      controller.abort();
      await assert.rejects(pending, OpenAI.APIUserAbortError);
      // The request's end is counted once the gateway has seen the client go.
      for (let polls = 0; ; polls++) {
        const metrics = await (await fetch(`${h.url}/metrics`)).text();
        if (/warden_requests_total\{role="patient",route="r1@r1",outcome="client_aborted"\} 1/.test(metrics)) break;
        assert.ok(polls < 500, 'the request never ended as client_aborted');
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      clock.holdSleeps = false;
      clock.onSleep = null;
      h.fleet.setFaults('r1', {});
    }
    assert.equal(served(h.fleet, 'r1'), served0.r1 + 1, 'the 429 only, no retry');
    assert.equal(served(h.fleet, 'fb'), served0.fb, 'no fallback');
  });

  test('429 with Retry-After 120 moves on at once', async () => {
    h.fleet.setFaults('r2', { rateLimit: 1 });
    const before = clock.slept.length;
    const { response } = await h.client.chat.completions.create({ model: 'hurried', messages: HELLO }).withResponse();
    assert.equal(clock.slept.length, before, 'no wait');
    assert.equal(response.headers.get('x-warden-route'), 'fb@fb');
    assert.equal(response.headers.get('x-warden-fallback'), 'rate_limited:upstream_status_429 at r2@r2');
    assert.equal(h.gateway.breakers.state('r2@r2'), 'closed', 'a 429 does not feed the breaker');
  });

  test('a role that only met 429s tells the client to come back when the upstream said, not after a fixed 30 s', async () => {
    h.fleet.setFaults('r2', { rateLimit: 1 });
    try {
      await assert.rejects(h.client.chat.completions.create({ model: 'throttled', messages: HELLO }), (e: unknown) => {
        assert.ok(e instanceof OpenAI.APIError);
        assert.equal(e.status, 503);
        assert.equal(e.headers?.get('retry-after'), '120');
        return true;
      });
    } finally {
      h.fleet.setFaults('r2', {});
    }
  });

  test('a strict role answers 503 with Retry-After and never calls a second model', async () => {
    h.fleet.setFaults('s1', { error503: 1 });
    await assert.rejects(h.client.chat.completions.create({ model: 'reasoning', messages: HELLO }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.APIError);
      assert.equal(e.status, 503);
      assert.equal(e.code, 'role_unavailable');
      assert.match(e.message, /strict and does not degrade/);
      assert.ok(Number(e.headers?.get('retry-after')) >= 1);
      return true;
    });
    assert.equal(served(h.fleet, 's2'), 0);
  });

  test('a default role answers its default when every route is down, and says so', async () => {
    h.fleet.setFaults('i1', { error502: 1 });
    const { data, response } = await h.client.chat.completions.create({ model: 'intent', messages: HELLO }).withResponse();
    assert.equal(data.choices[0]!.message.content, '{"intent":"chitchat"}');
    assert.equal(response.headers.get('x-warden-default'), 'true');
    // No route produced the default: x-warden-route names none; the fallback header says what failed.
    assert.equal(response.headers.get('x-warden-route'), null);
    assert.equal(response.headers.get('x-warden-fallback'), 'transport:upstream_status_502 at i1@i1');
    const { data: stream, response: streamed } = await h.client.chat.completions.create({ model: 'intent', messages: HELLO, stream: true }).withResponse();
    assert.equal(streamed.headers.get('x-warden-default'), 'true');
    assert.equal(streamed.headers.get('x-warden-route'), null);
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.equal(text, '{"intent":"chitchat"}');
  });

  test('a structured role has thinking forced off whatever the config says', async () => {
    await h.client.chat.completions.create({ model: 'intent', messages: HELLO, reasoning_effort: 'high' } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const body = h.fleet.stats().recent.at(-1)!.body as Record<string, unknown>;
    assert.equal(body.reasoning_effort, undefined);
  });

  test('no reasoning text reaches a structured role, streamed or not; a thinking role keeps it', async () => {
    const post = async (model: string, stream: boolean) => {
      const res = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, stream, messages: HELLO }) });
      return res.text();
    };
    const plain = JSON.parse(await post('extraction', false)) as { choices: Array<{ message: Record<string, unknown> }> };
    assert.equal(plain.choices[0]!.message.reasoning_content, undefined);
    assert.ok(String(plain.choices[0]!.message.content).length > 0);
    const streamed = await post('extraction', true);
    assert.ok(!streamed.includes('reasoning_content'), 'no reasoning delta in the stream');
    assert.match(streamed, /data: \[DONE\]/);
    assert.match(await post('musing', true), /reasoning_content/);
    assert.match(await post('musing', false), /reasoning_content/);
  });

  test('the fallback budget stops at maxFallbacks', async () => {
    for (const p of ['c1', 'c2', 'c3']) h.fleet.setFaults(p, { error500: 1 });
    await assert.rejects(h.client.chat.completions.create({ model: 'budget', messages: HELLO }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.APIError);
      assert.equal(e.status, 503);
      assert.equal(e.headers?.get('x-warden-attempts'), '3');
      assert.match(e.message, /within 3 attempt/);
      return true;
    });
    assert.deepEqual(['c1', 'c2', 'c3', 'c4'].map((p) => served(h.fleet, p)), [1, 1, 1, 0]);
    const entry = h.gateway.store.ledger(1)[0]!;
    assert.equal(entry.role, 'budget');
    assert.equal(entry.outcome, 'unavailable');
    assert.equal(entry.attempts, 3);
  });

  test('a mixed-language answer falls back to a model that lists the language', async () => {
    const messages = [{ role: 'user' as const, content: 'Olá! Você pode me contar como foi o seu dia hoje? Estou curioso.' }];
    const { data, response } = await h.client.chat.completions.create({ model: 'lusophone', messages }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'ptgood@ptgood');
    assert.match(response.headers.get('x-warden-fallback') ?? '', /^quality:(mixed|wrong)_language at ptweak@ptweak$/);
    assert.equal(served(h.fleet, 'other'), 0, 'the model without Portuguese was skipped');
    assert.ok(data.choices[0]!.message.content!.length > 100);
    const entry = h.gateway.store.ledger(1)[0]!;
    assert.deepEqual([entry.primaryRoute, entry.finalRoute, entry.outcome], ['ptweak@ptweak', 'ptgood@ptgood', 'fallback']);
  });

  test('without a configured language the reply is expected in the language the user wrote in', async () => {
    const messages = [{ role: 'user' as const, content: 'Boa noite! Você pode me contar uma história curta sobre o mar?' }];
    const { response } = await h.client.chat.completions.create({ model: 'polyglot', messages }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'ptgood@ptgood');
    assert.match(response.headers.get('x-warden-fallback') ?? '', /^quality:(mixed|wrong)_language at ptweak@ptweak$/);
  });

  test('a stream with a bad prefix inside the hold-back window falls back before the first byte', async () => {
    const { data: stream, response } = await h.client.chat.completions.create({ model: 'streamy', messages: HELLO, stream: true }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'clean@clean');
    assert.match(response.headers.get('x-warden-fallback') ?? '', /^quality:\w+ at stray@stray$/);
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.match(text, /^[A-Z]/, 'the client saw only the clean answer');
    assert.equal(served(h.fleet, 'stray'), 1);
    await h.fleet.waitFor((s) => s.openStreams === 0);
  });

  test('escalation sends a hard request to the strong model and says why', async () => {
    const easy = await h.client.chat.completions.create({ model: 'smart', messages: HELLO }).withResponse();
    assert.equal(easy.response.headers.get('x-warden-route'), 'easy@easy');
    assert.equal(easy.response.headers.get('x-warden-escalation'), null);
    const hard = await h.client.chat.completions.create({ model: 'smart', messages: HELLO }, { headers: { 'x-warden-difficulty': '0.9' } }).withResponse();
    assert.equal(hard.response.headers.get('x-warden-route'), 'strong@strong');
    assert.equal(hard.response.headers.get('x-warden-escalation'), 'score=0.9; cause=hint=0.90; to=strong');
    const keyword = await h.client.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: 'Can you prove Fermat for n=3?' }] }).withResponse();
    assert.equal(keyword.response.headers.get('x-warden-escalation'), 'score=0.75; cause=keyword="prove"; to=strong');
    const body = h.fleet.stats().recent.at(-1)!.body as Record<string, unknown>;
    assert.equal(body.model, 'strong-model');
  });

  test('a keyword in any script escalates and its header stays ASCII, streamed or not; the strong route is not blamed', async () => {
    const messages = [{ role: 'user' as const, content: '请证明这个定理' }];
    const plain = await h.client.chat.completions.create({ model: 'smart', messages }).withResponse();
    assert.equal(plain.response.headers.get('x-warden-escalation'), 'score=0.75; cause=keyword="\\u8bc1\\u660e"; to=strong');
    assert.equal(JSON.parse(/keyword=("[^"]*")/.exec(plain.response.headers.get('x-warden-escalation')!)![1]!), '证明', 'a JSON string: decodable');
    const stream = await h.client.chat.completions.create({ model: 'smart', messages, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.ok(text.length > 0);
    assert.equal(h.gateway.breakers.snapshot('strong@strong')?.consecutiveFailures ?? 0, 0);
  });
});
