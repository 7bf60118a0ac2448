// The official `openai` client against Warden: raw chunks for chat and usage, and the
// library's own helpers (parse, the stream helper, zodFunction, zodResponseFormat) for tool
// calls and structured output, since those are what assemble and validate the answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { zodFunction, zodResponseFormat } from 'openai/helpers/zod';
import { compatSuite, type CompatClient } from './contract.js';
import { CITY_REPORT, CLIENT_KEY, PROMPTS, TARGETS, WEATHER_TOOL } from './fleet.js';

function openaiClient(baseURL: string, apiKey: string): CompatClient {
  const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 20_000 });
  const user = (content: string) => [{ role: 'user' as const, content }];
  const weather = {
    tools: [zodFunction({ name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.schema })],
    tool_choice: { type: 'function' as const, function: { name: WEATHER_TOOL.name } },
  };
  const report = { response_format: zodResponseFormat(CITY_REPORT.schema, CITY_REPORT.name) };

  return {
    async chat(model, prompt, seed) {
      const completion = await client.chat.completions.create({ model, messages: user(prompt), seed });
      const choice = completion.choices[0]!;
      return { text: choice.message.content ?? '', finishReason: choice.finish_reason };
    },

    async stream(model, prompt, seed) {
      const stream = await client.chat.completions.create({ model, messages: user(prompt), seed, stream: true });
      let text = '';
      let deltas = 0;
      let finishReason: string | null = null;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (choice?.delta.content) {
          text += choice.delta.content;
          deltas++;
        }
        finishReason = choice?.finish_reason ?? finishReason;
      }
      return { text, deltas, finishReason };
    },

    async callTool(model, mode) {
      const params = { model, messages: user(PROMPTS.tool), ...weather };
      if (mode === 'whole') {
        const completion = await client.chat.completions.parse(params);
        const choice = completion.choices[0]!;
        const call = choice.message.tool_calls?.[0];
        assert.ok(call, 'the message carries a tool call');
        return { name: call.function.name, args: call.function.parsed_arguments, argumentDeltas: 0, finishReason: choice.finish_reason };
      }
      const stream = client.chat.completions.stream(params);
      let argumentDeltas = 0;
      stream.on('tool_calls.function.arguments.delta', () => argumentDeltas++);
      const completion = await stream.finalChatCompletion();
      const choice = completion.choices[0]!;
      const call = choice.message.tool_calls?.[0];
      assert.ok(call, 'the assembled message carries a tool call');
      return { name: call.function.name, args: call.function.parsed_arguments, argumentDeltas, finishReason: choice.finish_reason };
    },

    async structured(model, mode) {
      const params = { model, messages: user(PROMPTS.structured), ...report };
      const completion = mode === 'whole' ? await client.chat.completions.parse(params) : await client.chat.completions.stream(params).finalChatCompletion();
      return completion.choices[0]!.message.parsed;
    },

    async streamUsage(model, prompt, seed) {
      const stream = await client.chat.completions.create({ model, messages: user(prompt), seed, stream: true, stream_options: { include_usage: true } });
      let text = '';
      let last: OpenAI.ChatCompletionChunk | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        last = chunk;
      }
      // OpenAI's shape: usage comes alone, in the last chunk, with no choices.
      assert.deepEqual(last?.choices, [], 'the last chunk is the usage chunk');
      const usage = last?.usage;
      return { text, promptTokens: usage?.prompt_tokens, completionTokens: usage?.completion_tokens, totalTokens: usage?.total_tokens };
    },
  };
}

compatSuite('openai', openaiClient, ({ harness }) => {
  test('the stream helper assembles the same snapshot as the raw chunks', async () => {
    const h = harness();
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: CLIENT_KEY, maxRetries: 0, timeout: 20_000 });
    for (const target of TARGETS) {
      const params = { model: target.model, messages: [{ role: 'user' as const, content: PROMPTS.open }], seed: 3 };
      const plain = await client.chat.completions.create(params);
      const stream = client.chat.completions.stream(params);
      let done = '';
      stream.on('content.done', (event) => (done = event.content));
      const final = await stream.finalChatCompletion();
      assert.equal(final.choices[0]!.message.content, plain.choices[0]!.message.content, target.label);
      assert.equal(done, plain.choices[0]!.message.content);
      assert.equal(final.choices[0]!.finish_reason, 'stop');
    }
  });

  test('runTools: the library calls the tool with the parsed arguments and sends its result back, streamed and not', async () => {
    const h = harness();
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: CLIENT_KEY, maxRetries: 0, timeout: 20_000 });
    for (const target of TARGETS) {
      for (const stream of [false, true]) {
        const called: unknown[] = [];
        const tool = zodFunction({ name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.schema, function: (args) => (called.push(args), 'sunny') });
        const base = { model: target.model, messages: [{ role: 'user' as const, content: PROMPTS.tool }], tools: [tool], tool_choice: { type: 'function' as const, function: { name: WEATHER_TOOL.name } } };
        const runner = stream ? client.chat.completions.runTools({ ...base, stream: true }) : client.chat.completions.runTools(base);
        const messages = (await runner.done(), runner.messages);
        assert.equal(called.length, 1, `${target.label}, stream ${stream}`);
        assert.doesNotThrow(() => WEATHER_TOOL.schema.parse(called[0]));
        // The call went out as the assistant's message and the tool's answer after it.
        assert.deepEqual(messages.slice(-2).map((m) => m.role), ['assistant', 'tool']);
        // The conversation goes on with the call (content null) and its result in it.
        const next = await client.chat.completions.create({ model: target.model, messages: [...base.messages, ...messages.slice(-2)] });
        assert.ok((next.choices[0]!.message.content ?? '').length > 0, target.label);
      }
    }
  });

  test('a wrong key and an unknown model surface as the library\u2019s own error classes', async () => {
    const h = harness();
    const wrongKey = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'not-the-key', maxRetries: 0, timeout: 20_000 });
    await assert.rejects(wrongKey.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'hi' }] }), OpenAI.AuthenticationError);
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: CLIENT_KEY, maxRetries: 0, timeout: 20_000 });
    await assert.rejects(client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }], stream: true }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.NotFoundError);
      assert.equal(e.code, 'model_not_found');
      return true;
    });
  });
});
