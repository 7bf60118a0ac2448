// LangChain's ChatOpenAI (`@langchain/openai`) against Warden: `model` is a Warden role or
// model name, `configuration.baseURL` the gateway. Streams are merged chunk by chunk with
// AIMessageChunk.concat, which is where LangChain assembles tool-call fragments and usage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatOpenAI } from '@langchain/openai';
import type { AIMessageChunk } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { compatSuite, type CompatClient } from './contract.js';
import { CITY_REPORT, CLIENT_KEY, PROMPTS, reference, TARGETS, WEATHER_TOOL } from './fleet.js';

function chatModel(baseURL: string, apiKey: string, model: string): ChatOpenAI {
  return new ChatOpenAI({ model, apiKey, configuration: { baseURL }, maxRetries: 0, timeout: 20_000 });
}

const weatherTool = tool(async () => 'sunny', { name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, schema: WEATHER_TOOL.schema });

/** Merges a whole stream the way LangChain does; counts the chunks that matched `counts`. */
async function merge(stream: AsyncIterable<AIMessageChunk>, counts: (chunk: AIMessageChunk) => boolean): Promise<{ merged: AIMessageChunk; counted: number }> {
  let merged: AIMessageChunk | undefined;
  let counted = 0;
  for await (const chunk of stream) {
    if (counts(chunk)) counted++;
    merged = merged === undefined ? chunk : merged.concat(chunk);
  }
  assert.ok(merged, 'the stream yielded chunks');
  return { merged, counted };
}

const finishReason = (message: { response_metadata: Record<string, unknown> }) => message.response_metadata.finish_reason as string | undefined;

function langchainClient(baseURL: string, apiKey: string): CompatClient {
  const llm = (model: string) => chatModel(baseURL, apiKey, model);

  return {
    async chat(model, prompt, seed) {
      const message = await llm(model).invoke(prompt, { seed });
      return { text: message.text, finishReason: finishReason(message) };
    },

    async stream(model, prompt, seed) {
      const { merged, counted } = await merge(await llm(model).stream(prompt, { seed }), (c) => c.text.length > 0);
      return { text: merged.text, deltas: counted, finishReason: finishReason(merged) };
    },

    async callTool(model, mode) {
      const bound = llm(model).bindTools([weatherTool], { tool_choice: WEATHER_TOOL.name });
      if (mode === 'whole') {
        const message = await bound.invoke(PROMPTS.tool);
        const call = message.tool_calls?.[0];
        assert.ok(call, 'LangChain parsed a tool call');
        return { name: call.name, args: call.args, argumentDeltas: 0, finishReason: finishReason(message) };
      }
      const { merged, counted } = await merge(await bound.stream(PROMPTS.tool), (c) => (c.tool_call_chunks ?? []).some((t) => (t.args ?? '') !== ''));
      assert.equal(merged.invalid_tool_calls?.length ?? 0, 0, 'every assembled call parsed');
      const call = merged.tool_calls?.[0];
      assert.ok(call, 'LangChain assembled a tool call from the chunks');
      return { name: call.name, args: call.args, argumentDeltas: counted, finishReason: finishReason(merged) };
    },

    async structured(model, mode) {
      const structured = llm(model).withStructuredOutput(CITY_REPORT.schema, { name: CITY_REPORT.name, method: 'jsonSchema' });
      if (mode === 'whole') return structured.invoke(PROMPTS.structured);
      let last: unknown;
      for await (const value of await structured.stream(PROMPTS.structured)) last = value;
      return last;
    },

    async streamUsage(model, prompt, seed) {
      const { merged } = await merge(await llm(model).stream(prompt, { seed }), () => false);
      const usage = merged.usage_metadata;
      return { text: merged.text, promptTokens: usage?.input_tokens, completionTokens: usage?.output_tokens, totalTokens: usage?.total_tokens };
    },
  };
}

compatSuite('LangChain ChatOpenAI', langchainClient, ({ harness }) => {
  test('non-streamed usage_metadata carries the gateway\u2019s usage', async () => {
    const h = harness();
    for (const target of TARGETS) {
      const expected = await reference(h, target.model, PROMPTS.open, 5);
      const message = await chatModel(`${h.url}/v1`, CLIENT_KEY, target.model).invoke(PROMPTS.open, { seed: 5 });
      assert.equal(message.text, expected.content, target.label);
      assert.deepEqual(
        { input: message.usage_metadata?.input_tokens, output: message.usage_metadata?.output_tokens, total: message.usage_metadata?.total_tokens },
        { input: expected.usage.prompt_tokens, output: expected.usage.completion_tokens, total: expected.usage.total_tokens },
      );
    }
  });
});
