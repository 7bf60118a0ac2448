// `n` > 1 streamed: the upstream interleaves the choices' deltas (each chunk names its `index`),
// and with `stream_options.include_usage` ends with a usage chunk whose `choices` is empty.
// A role with checks judges each choice of a stream on its own (every-choice-stream.test.ts): the pieces
// of one must not be spliced into another's text (two JSON objects interleaved are no JSON). The
// official openai client reads the gateway; the upstream plays the exact wire script.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gatewayConfigYaml, startHarness, type Harness } from '../helpers/harness.js';
import { metricsText } from '../helpers/metrics.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-upstream.js';

const SCHEMA = { type: 'object', required: ['city'], properties: { city: { type: 'string' } } };
const ASK = [{ role: 'user' as const, content: 'Name a city in France as JSON.' }];
const USAGE = { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 };

const event = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices, ...extra })}\n\n`;
const piece = (index: number, content: string) => ({ index, delta: { content }, finish_reason: null });

describe('several choices in one stream', () => {
  let h: Harness;
  let upstream: ScriptedUpstream;
  before(async () => {
    upstream = await startScriptedUpstream({
      two: async (write) => {
        write(event([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
        write(event([{ index: 1, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
        for (const [index, content] of [[0, '{"city":'], [1, '{"city":'], [0, '"Paris"}'], [1, '"Lyon"}']] as const) write(event([piece(index, content)]));
        write(event([{ index: 0, delta: {}, finish_reason: 'stop' }]));
        write(event([{ index: 1, delta: {}, finish_reason: 'stop' }]));
        write(event([], { usage: USAGE }));
        write('data: [DONE]\n\n');
      },
    });
    const schema = `checks: [schema, nonempty], schema: ${JSON.stringify(SCHEMA)}`;
    h = await startHarness({
      configYaml: (fleet) =>
        gatewayConfigYaml(fleet, `  held: { tier: degrade, models: [two], ${schema}, holdBack: { chars: 200, ms: 30s } }\n  gated: { tier: degrade, models: [two], ${schema} }`)
          .replace('models:', `  scripted: { kind: openai-compatible, baseUrl: "${upstream.baseUrl}" }\nmodels:\n  two: { provider: scripted, model: two }`),
    });
  });
  after(async () => {
    await h.close();
    await upstream.close();
  });

  for (const role of ['held', 'gated']) {
    test(`${role}: each choice reaches the client whole, the usage chunk too, and no check failed`, async () => {
      const stream = await h.client.chat.completions.create({ model: role, messages: ASK, stream: true, n: 2, stream_options: { include_usage: true } });
      const texts = ['', ''];
      let usage: unknown = null;
      for await (const chunk of stream) {
        for (const choice of chunk.choices) texts[choice.index] += choice.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      assert.deepEqual(texts.map((t) => JSON.parse(t)), [{ city: 'Paris' }, { city: 'Lyon' }]);
      assert.deepEqual(usage, USAGE);
      assert.doesNotMatch(await metricsText(h.url), new RegExp(`warden_quality_failures_total\\{role="${role}"`));
    });
  }
});
