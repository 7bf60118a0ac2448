// A stream's token usage counts in warden_tokens_total (and the cost) whichever way the stream
// was relayed: raw bytes (a model named directly, a role without checks once committed) or read
// event by event (a gated role). Raw relays once dropped it. When the client does not ask for
// usage, Warden asks the upstream for it (stream_options.include_usage) and takes the usage
// chunk out before the client reads it; a provider with `streamUsage: false` is not asked.
// An upstream that sends running usage on every chunk (vLLM's continuous_usage_stats) has every
// one taken out, and its last counted; an answer with no usage at all is counted as such
// (warden_answers_without_usage_total), not silently left out of the tokens and the cost.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type OpenAI from 'openai';
import { gatewayConfigYaml, SCENARIO, startHarness, type Harness } from '../helpers/harness.js';
import { metricsText, seriesValue } from '../helpers/metrics.js';

const HELLO = [{ role: 'user' as const, content: 'Hello there' }];
const ROLES = [['chat-small', '-'], ['intent', 'intent'], ['gated', 'gated'], ['nothink', 'nothink']] as const;

describe('a streamed answer\u2019s usage', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      scenario: { ...SCENARIO, providers: { ...SCENARIO.providers, Running: { models: ['running/model'], usage: 'running' }, Mute: { models: ['mute/model'], usage: 'none' } } },
      configYaml: (fleet) =>
        gatewayConfigYaml(fleet, '  gated: { tier: degrade, models: [chat-small], checks: [nonempty] }\n  nothink: { tier: degrade, models: [chat-small], thinking: off }\n  quiet: { tier: degrade, models: [small-quiet] }\n  gatedrunning: { tier: degrade, models: [running], checks: [nonempty] }')
          .replace(
            'models:',
            [
              `  quietdirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}", streamUsage: false }`,
              `  runningdirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Running')}" }`,
              `  mutedirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Mute')}" }`,
              'models:',
              '  small-quiet: { provider: quietdirect, model: gpt-4o-mini }',
              '  running: { provider: runningdirect, model: running/model }',
              '  mute: { provider: mutedirect, model: mute/model }',
            ].join('\n'),
          ),
    });
  });
  after(() => h.close());

  const tokens = async (role: string, model: string) => seriesValue(await metricsText(h.url), `warden_tokens_total{role="${role}",model="${model}",kind="completion"}`) ?? 0;
  const withoutUsage = async (role: string, route: string) => seriesValue(await metricsText(h.url), `warden_answers_without_usage_total{role="${role}",route="${route}"}`) ?? 0;

  /** Streams through the openai client: every chunk, and the usage the client was given (if any). */
  async function stream(model: string, extra: Record<string, unknown> = {}) {
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    const s = await h.client.chat.completions.create({ model, messages: HELLO, stream: true, ...extra } as OpenAI.ChatCompletionCreateParamsStreaming);
    for await (const chunk of s) chunks.push(chunk);
    return { chunks, usage: chunks.map((c) => c.usage).filter((u) => u != null).at(-1) ?? null, text: chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('') };
  }

  for (const [model, role] of ROLES) {
    test(`${model}: the usage chunk the client asked for is what Warden counts`, async () => {
      const before = await tokens(role, 'chat-small');
      const { usage } = await stream(model, { stream_options: { include_usage: true } });
      assert.ok(usage && usage.completion_tokens > 0, 'the client got the usage chunk');
      assert.equal((await tokens(role, 'chat-small')) - before, usage.completion_tokens);
    });

    test(`${model}: a client that did not ask gets no usage chunk, and Warden still counts the stream`, async () => {
      const before = await tokens(role, 'chat-small');
      const { chunks, usage, text } = await stream(model);
      assert.equal(usage, null, 'no usage reached the client');
      assert.ok(chunks.every((c) => c.choices.length > 0), 'every chunk the client read has a choice');
      assert.ok(text.length > 0);
      assert.deepEqual((h.fleet.stats().recent.at(-1)!.body as { stream_options?: unknown }).stream_options, { include_usage: true }, 'Warden asked the upstream for usage');
      assert.ok((await tokens(role, 'chat-small')) - before > 0, 'the stream\u2019s tokens were counted');
    });
  }

  test('stream_options of the client\u2019s own without include_usage: asked for on top of them, taken out again', async () => {
    const before = await tokens('-', 'chat-small');
    const { usage, chunks } = await stream('chat-small', { stream_options: {} });
    assert.equal(usage, null);
    assert.ok(chunks.every((c) => c.choices.length > 0));
    assert.ok((await tokens('-', 'chat-small')) - before > 0);
  });

  test('a provider with streamUsage: false is not asked: nothing is added to its request', async () => {
    const { usage } = await stream('quiet');
    assert.equal(usage, null);
    assert.equal((h.fleet.stats().recent.at(-1)!.body as { stream_options?: unknown }).stream_options, undefined);
    assert.equal(await tokens('quiet', 'small-quiet'), 0);
    assert.equal(await withoutUsage('quiet', 'small-quiet@quietdirect'), 1, 'the answer is counted as one without usage');
  });

  for (const [model, role] of [['running', '-'], ['gatedrunning', 'gatedrunning']] as const) {
    test(`${model}: running usage on every chunk passes through when asked for, and is taken out of every chunk when not; the last counts`, async () => {
      const asked = await stream(model, { stream_options: { include_usage: true } });
      const withChoices = asked.chunks.filter((c) => c.choices.length > 0);
      assert.ok(withChoices.length > 2 && withChoices.every((c) => c.usage != null), 'the running usage reached the client that asked, on every chunk');
      const last = asked.usage!;
      const before = await tokens(role, 'running');
      const { chunks, usage, text } = await stream(model);
      assert.equal(usage, null, 'no usage reached the client that did not ask');
      assert.ok(chunks.every((c) => c.choices.length > 0 && !('usage' in c)), 'every chunk has a choice and no usage key');
      assert.equal(text, asked.text);
      assert.equal((await tokens(role, 'running')) - before, last.completion_tokens, 'the last running total, not their sum');
      assert.equal(await withoutUsage(role, 'running@runningdirect'), 0);
    });
  }

  test('an upstream that sends no usage at all: each answer, streamed or not, is counted as one without usage', async () => {
    const route = 'mute@mutedirect';
    const completion = await h.client.chat.completions.create({ model: 'mute', messages: HELLO });
    assert.equal(completion.usage, undefined);
    assert.equal(await withoutUsage('-', route), 1);
    const notAsked = await stream('mute');
    assert.ok(notAsked.text.length > 0);
    assert.deepEqual((h.fleet.stats().recent.at(-1)!.body as { stream_options?: unknown }).stream_options, { include_usage: true }, 'Warden asked, the upstream ignored it');
    assert.equal(await withoutUsage('-', route), 2);
    await stream('mute', { stream_options: { include_usage: true } });
    assert.equal(await withoutUsage('-', route), 3);
    assert.equal(await tokens('-', 'mute'), 0);
    assert.equal(await withoutUsage('-', 'chat-small@direct'), 0, 'answers with usage are not counted');
  });
});
