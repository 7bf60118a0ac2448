// The Vercel AI SDK (`ai` with `@ai-sdk/openai-compatible`) against Warden. The provider
// needs `supportsStructuredOutputs: true` to send json_schema (without it the SDK falls back
// to json_object), and `includeUsage: true` to ask for the usage chunk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateObject, generateText, jsonSchema, Output, streamText, tool, type TextStreamPart, type ToolSet } from 'ai';
import { compatSuite, type CompatClient } from './contract.js';
import { CITY_REPORT, CLIENT_KEY, lastUpstream, PROMPTS, TARGETS, WEATHER_TOOL } from './fleet.js';

function provider(baseURL: string, apiKey: string) {
  return createOpenAICompatible({ name: 'warden', baseURL, apiKey, includeUsage: true, supportsStructuredOutputs: true });
}

const weatherTools = {
  [WEATHER_TOOL.name]: tool({ description: WEATHER_TOOL.description, inputSchema: WEATHER_TOOL.schema }),
};
const forceWeather = { type: 'tool', toolName: WEATHER_TOOL.name } as const;

/** Reads a whole fullStream; an `error` part fails the test instead of ending the stream quietly. */
async function drain<T extends ToolSet>(parts: AsyncIterable<TextStreamPart<T>>): Promise<TextStreamPart<T>[]> {
  const seen: TextStreamPart<T>[] = [];
  for await (const part of parts) {
    if (part.type === 'error') throw part.error;
    seen.push(part);
  }
  assert.equal(seen.at(-1)?.type, 'finish', 'the stream ended with its finish part');
  return seen;
}

function aiSdkClient(baseURL: string, apiKey: string): CompatClient {
  const warden = provider(baseURL, apiKey);
  const common = (model: string) => ({ model: warden(model), maxRetries: 0 });

  return {
    async chat(model, prompt, seed) {
      const result = await generateText({ ...common(model), prompt, seed });
      return { text: result.text, finishReason: result.finishReason };
    },

    async stream(model, prompt, seed) {
      const result = streamText({ ...common(model), prompt, seed });
      const parts = await drain(result.fullStream);
      const deltas = parts.filter((p) => p.type === 'text-delta');
      return { text: deltas.map((p) => p.text).join(''), deltas: deltas.length, finishReason: await result.finishReason };
    },

    async callTool(model, mode) {
      const request = { ...common(model), prompt: PROMPTS.tool, tools: weatherTools, toolChoice: forceWeather };
      if (mode === 'whole') {
        const result = await generateText(request);
        const call = result.toolCalls[0];
        assert.ok(call, 'the SDK parsed a tool call');
        return { name: call.toolName, args: call.input, argumentDeltas: 0, finishReason: result.finishReason };
      }
      const result = streamText(request);
      const parts = await drain(result.fullStream);
      const call = parts.find((p) => p.type === 'tool-call');
      assert.ok(call, 'the SDK assembled a tool call from the stream');
      const argumentDeltas = parts.filter((p) => p.type === 'tool-input-delta').length;
      return { name: call.toolName, args: call.input, argumentDeltas, finishReason: await result.finishReason };
    },

    async structured(model, mode) {
      const request = { ...common(model), prompt: PROMPTS.structured, output: Output.object({ schema: CITY_REPORT.schema, name: CITY_REPORT.name }) };
      if (mode === 'whole') return (await generateText(request)).output;
      const result = streamText(request);
      await drain(result.fullStream);
      return result.output;
    },

    async streamUsage(model, prompt, seed) {
      const result = streamText({ ...common(model), prompt, seed });
      const parts = await drain(result.fullStream);
      const text = parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : [])).join('');
      const usage = await result.usage;
      return { text, promptTokens: usage.inputTokens, completionTokens: usage.outputTokens, totalTokens: usage.totalTokens };
    },
  };
}

compatSuite('Vercel AI SDK', aiSdkClient, ({ harness }) => {
  test('generateObject (the older structured API) sends json_schema and validates the object', async () => {
    const h = harness();
    const warden = provider(`${h.url}/v1`, CLIENT_KEY);
    for (const target of TARGETS) {
      h.fleet.reset();
      const result = await generateObject({ model: warden(target.model), maxRetries: 0, schema: CITY_REPORT.schema, schemaName: CITY_REPORT.name, prompt: PROMPTS.structured });
      assert.equal(result.object.city, 'Paris', target.label);
      assert.ok(result.object.landmarks.length > 0);
      assert.ok(result.usage.outputTokens! > 0);
      const sent = (await lastUpstream(h.fleet)).body as { response_format?: { type?: string } };
      assert.equal(sent.response_format?.type, 'json_schema');
    }
  });

  test('a tool declared with jsonSchema() is called with arguments of that schema, streamed', async () => {
    const h = harness();
    const warden = provider(`${h.url}/v1`, CLIENT_KEY);
    const lookup = tool({
      description: 'Look a customer up',
      inputSchema: jsonSchema<{ email: string; limit: number; tags: string[] }>({
        type: 'object',
        properties: { email: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 50 }, tags: { type: 'array', items: { type: 'string' }, minItems: 1 } },
        required: ['email', 'limit', 'tags'],
        additionalProperties: false,
      }),
    });
    for (const target of TARGETS) {
      const result = streamText({ model: warden(target.model), maxRetries: 0, prompt: 'Find the customer alex@example.com', tools: { lookup_customer: lookup }, toolChoice: { type: 'tool', toolName: 'lookup_customer' } });
      const parts = await drain(result.fullStream);
      const call = parts.find((p) => p.type === 'tool-call');
      assert.ok(call && call.toolName === 'lookup_customer', target.label);
      const input = call.input as { email: string; limit: number; tags: string[] };
      assert.equal(input.email, 'alex@example.com');
      assert.ok(Number.isInteger(input.limit) && input.limit >= 1 && input.limit <= 50);
      assert.ok(input.tags.length >= 1 && input.tags.every((t) => typeof t === 'string'));
    }
  });

  test('an unknown model surfaces as an APICallError with the gateway\u2019s status and code', async () => {
    const h = harness();
    const warden = provider(`${h.url}/v1`, CLIENT_KEY);
    await assert.rejects(generateText({ model: warden('no-such-model'), maxRetries: 0, prompt: 'hi' }), (e: unknown) => {
      assert.ok(APICallError.isInstance(e));
      assert.equal(e.statusCode, 404);
      assert.match(e.responseBody ?? '', /model_not_found/);
      return true;
    });
  });
});
