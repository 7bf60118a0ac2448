// A stream's token usage counts in warden_tokens_total (and the cost) whichever way the stream
// was relayed: raw bytes (a model named directly, a role without checks once committed) or read
// event by event (a gated role). Raw relays once dropped it. When the client does not ask for
// usage, Warden asks the upstream for it (stream_options.include_usage) and takes the usage
// chunk out before the client reads it; a provider with `streamUsage: false` is not asked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type OpenAI from 'openai';
import { gatewayConfigYaml, startHarness, type Harness } from '../helpers/harness.js';
import { metricsText, seriesValue } from '../helpers/metrics.js';

const HELLO = [{ role: 'user' as const, content: 'Hello there' }];
const ROLES = [['chat-small', '-'], ['intent', 'intent'], ['gated', 'gated'], ['nothink', 'nothink']] as const;

describe('a streamed answer\u2019s usage', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      configYaml: (fleet) =>
        gatewayConfigYaml(fleet, '  gated: { tier: degrade, models: [chat-small], checks: [nonempty] }\n  nothink: { tier: degrade, models: [chat-small], thinking: off }\n  quiet: { tier: degrade, models: [small-quiet] }')
          .replace('models:', `  quietdirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}", streamUsage: false }\nmodels:\n  small-quiet: { provider: quietdirect, model: gpt-4o-mini }`),
    });
  });
  after(() => h.close());

  const tokens = async (role: string, model: string) => seriesValue(await metricsText(h.url), `warden_tokens_total{role="${role}",model="${model}",kind="completion"}`) ?? 0;

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
  });
});
