// The OpenAI-compatible surface of one provider and the shapes of replies, over real HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ask, chunks, contentOf, fleetFor, MODEL, post, postStream, streamedText } from './fleet-helpers.js';

test('a non-streaming reply has the OpenAI shape', async (t) => {
  const fleet = await fleetFor(t);
  const answer = await post(`${fleet.providerBaseUrl('Alpha')}/chat/completions`, ask('Hello, how are you?'));
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
  const body = answer.json();
  assert.match(body.id, /^gen-/);
  assert.equal(body.object, 'chat.completion');
  assert.equal(typeof body.created, 'number');
  assert.equal(body.model, MODEL);
  assert.equal(body.provider, undefined, 'a direct provider does not name itself');
  assert.equal(body.choices.length, 1);
  const [choice] = body.choices;
  assert.equal(choice?.index, 0);
  assert.equal(choice?.message.role, 'assistant');
  assert.equal(choice?.finish_reason, 'stop');
  assert.equal(choice?.logprobs, null);
  assert.ok((choice?.message.content ?? '').length > 40);
  const usage = body.usage;
  assert.ok(usage && usage.prompt_tokens > 0 && usage.completion_tokens > 0);
  assert.equal(usage?.total_tokens, (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
});

test('a stream has the OpenAI chunk sequence, with usage when asked', async (t) => {
  const fleet = await fleetFor(t);
  const streamed = await postStream(
    `${fleet.providerBaseUrl('Alpha')}/chat/completions`,
    ask('Hello, how are you?', { stream: true, stream_options: { include_usage: true } }),
  );
  assert.equal(streamed.status, 200);
  assert.equal(streamed.events.at(-1), '[DONE]');
  const all = chunks(streamed);
  const ids = new Set(all.map((c) => c.id));
  assert.equal(ids.size, 1);
  for (const c of all) assert.equal(c.object, 'chat.completion.chunk');
  assert.deepEqual(all[0]?.choices[0]?.delta, { role: 'assistant', content: '' });
  const usageChunk = all.at(-1);
  assert.deepEqual(usageChunk?.choices, []);
  assert.ok(usageChunk?.usage && usageChunk.usage.completion_tokens > 0);
  const finish = all.at(-2);
  assert.deepEqual(finish?.choices[0]?.delta, {});
  assert.equal(finish?.choices[0]?.finish_reason, 'stop');
  const content = all.slice(1, -2);
  assert.equal(content.length, usageChunk?.usage?.completion_tokens, 'one chunk per counted token');
  for (const c of content) assert.equal(c.choices[0]?.finish_reason, null);
});

test('a provider\'s usage: running on every chunk of a stream that asks, or none at all', async (t) => {
  const fleet = await fleetFor(t, { seed: 3, providers: { Running: { models: [MODEL], usage: 'running' }, Mute: { models: [MODEL], usage: 'none' } } });
  const asking = ask('Hello, how are you?', { stream: true, stream_options: { include_usage: true } });
  const running = chunks(await postStream(`${fleet.providerBaseUrl('Running')}/chat/completions`, asking));
  const final = running.at(-1)!;
  assert.deepEqual(final.choices, [], 'the usage chunk still ends the stream');
  const counts = running.map((c) => c.usage?.completion_tokens);
  assert.ok(counts.every((n) => typeof n === 'number'), 'every chunk carries usage');
  assert.deepEqual(counts, [...counts].sort((a, b) => a! - b!), 'running totals only grow');
  assert.equal(counts[0], 0, 'the role chunk has no completion tokens yet');
  assert.equal(counts.at(-2), final.usage!.completion_tokens, 'the finish chunk has them all');
  assert.ok(chunks(await postStream(`${fleet.providerBaseUrl('Running')}/chat/completions`, { ...asking, stream_options: undefined })).every((c) => c.usage === undefined), 'not asked: none');

  const mute = `${fleet.providerBaseUrl('Mute')}/chat/completions`;
  assert.equal((await post(mute, ask('Hello'))).json().usage, undefined);
  const quiet = chunks(await postStream(mute, asking));
  assert.ok(quiet.length > 2 && quiet.every((c) => c.usage === undefined && c.choices.length === 1), 'include_usage ignored');
});

test('the same seed gives the same text streamed and not; the text does not depend on time', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Beta')}/chat/completions`;
  const body = ask('Tell me something nice', { seed: 1234 });
  const first = contentOf(await post(url, body));
  const streamed = streamedText(await postStream(url, { ...body, stream: true }));
  const again = contentOf(await post(url, body));
  assert.equal(streamed, first);
  assert.equal(again, first);
  const other = contentOf(await post(url, { ...body, messages: [{ role: 'user', content: 'Something else entirely' }] }));
  assert.equal(other, first, 'with a seed, the text follows the seed, not the prompt');
});

test('max_tokens truncates with finish_reason length, streamed and not', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const whole = await post(url, ask('Hello there', { max_tokens: 5 }));
  assert.equal(whole.json().choices[0]?.finish_reason, 'length');
  assert.equal(whole.json().usage?.completion_tokens, 5);
  const streamed = await postStream(url, ask('Hello there', { max_completion_tokens: 5, stream: true }));
  assert.equal(chunks(streamed).at(-1)?.choices[0]?.finish_reason, 'length');
  assert.equal(streamedText(streamed), contentOf(whole));
});

test('replies follow the prompt language and a system "Reply in"', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  assert.match(contentOf(await post(url, ask('今天天气怎么样？我们出去走走吧'))), /[\u4e00-\u9fff]/);
  assert.match(contentOf(await post(url, ask('Привет! Как прошёл твой день?'))), /[а-яё]/i);
  const pt = await post(url, { model: MODEL, messages: [{ role: 'system', content: 'Reply in Portuguese.' }, { role: 'user', content: 'Hi!' }] });
  assert.match(contentOf(pt), /\b(você|que|não|a gente|uma|um|muito)\b/);
});

test('fact questions get just the answer, in the question language', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  assert.equal(contentOf(await post(url, ask('What is the capital of France?'))), 'Paris');
  assert.equal(contentOf(await post(url, ask('法国的首都是哪里？'))), '巴黎');
  assert.equal(contentOf(await post(url, ask('¿Cuál es la capital de Francia?'))), 'Paris');
  assert.equal(contentOf(await post(url, ask('What is 2+2?'))), '4');
});

test('response_format json_object and json_schema give matching JSON', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const capital = await post(url, ask('What is the capital of France?', { response_format: { type: 'json_object' } }));
  assert.deepEqual(JSON.parse(contentOf(capital)), { city: 'Paris', country: 'France' });
  const plain = JSON.parse(contentOf(await post(url, ask('Hello!', { response_format: { type: 'json_object' } })))) as Record<string, unknown>;
  assert.equal(typeof plain.reply, 'string');

  const schema = {
    type: 'object',
    properties: {
      intent: { type: 'string', enum: ['chitchat', 'booking'] },
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      count: { type: 'integer' },
      urgent: { type: 'boolean' },
      version: { const: 2 },
      slots: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      meta: { type: 'object', properties: { language: { type: 'string' } } },
    },
    required: ['intent', 'confidence'],
  };
  const answer = await post(url, ask('Book a table', { response_format: { type: 'json_schema', json_schema: { name: 'intent', schema } } }));
  const value = JSON.parse(contentOf(answer)) as Record<string, unknown>;
  assert.equal(value.intent, 'chitchat');
  assert.ok(typeof value.confidence === 'number' && value.confidence >= 0 && value.confidence <= 1);
  assert.ok(Number.isInteger(value.count));
  assert.equal(value.urgent, true);
  assert.equal(value.version, 2);
  assert.ok(Array.isArray(value.slots) && value.slots.length > 0 && typeof (value.slots[0] as { name: unknown }).name === 'string');
  assert.equal(typeof (value.meta as { language: unknown }).language, 'string');
});

test('a forced tool gives tool_calls, streamed as tool-call deltas too', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const tools = [
    { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
    {
      type: 'function',
      function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } },
    },
  ];
  const body = ask('Weather in Paris?', { tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } });
  const whole = await post(url, body);
  const choice = whole.json().choices[0];
  assert.equal(choice?.finish_reason, 'tool_calls');
  assert.equal(choice?.message.content, null);
  const [call] = (choice?.message.tool_calls ?? []) as Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  assert.equal(call?.type, 'function');
  assert.equal(call?.function.name, 'get_weather');
  const args = JSON.parse(call?.function.arguments ?? '') as Record<string, unknown>;
  assert.equal(typeof args.city, 'string');
  assert.ok(Number.isInteger(args.days));

  const streamed = await postStream(url, { ...body, stream: true });
  const deltas = chunks(streamed).flatMap((c) => (c.choices[0]?.delta.tool_calls ?? []) as Array<{ id?: string; function: { name?: string; arguments: string } }>);
  assert.equal(deltas[0]?.id, call?.id);
  assert.equal(deltas[0]?.function.name, 'get_weather');
  assert.equal(deltas.map((d) => d.function.arguments).join(''), call?.function.arguments);
  assert.equal(chunks(streamed).at(-1)?.choices[0]?.finish_reason, 'tool_calls');

  const auto = await post(url, ask('Weather in Paris?', { tools, tool_choice: 'auto' }));
  assert.equal(auto.json().choices[0]?.finish_reason, 'stop', 'auto leaves the model free to answer in text');
  const required = await post(url, ask('Anything', { tools, tool_choice: 'required' }));
  assert.equal((required.json().choices[0]?.message.tool_calls as Array<{ function: { name: string } }>)[0]?.function.name, 'lookup');
});

test('bad input gets OpenAI-shaped errors', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const malformed = await post(url, '{"model": ');
  assert.equal(malformed.status, 400);
  assert.equal(malformed.json<{ error: { type: string } }>().error.type, 'invalid_request_error');

  for (const messages of [undefined, []]) {
    const missing = await post(url, { model: MODEL, messages });
    assert.equal(missing.status, 400);
    const { error } = missing.json<{ error: { message: string; param: string } }>();
    assert.match(error.message, /messages/);
    assert.equal(error.param, 'messages');
  }

  const unknownModel = await post(url, { ...ask('hi'), model: 'gpt-4o-mini' });
  assert.equal(unknownModel.status, 404);
  assert.equal(unknownModel.json<{ error: { code: string } }>().error.code, 'model_not_found');

  const unknownProvider = await post(`${fleet.url}/p/Nobody/v1/chat/completions`, ask('hi'));
  assert.equal(unknownProvider.status, 404);
  assert.equal(unknownProvider.json<{ error: { type: string } }>().error.type, 'not_found_error');

  const wrongMethod = await fetch(url);
  assert.equal(wrongMethod.status, 405);

  const badFault = await post(url, ask('hi'), { 'x-sim-fault': 'explode' });
  assert.equal(badFault.status, 400);
});

test('a provider with apiKey answers 401 without the right bearer token', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('small')}/chat/completions`;
  const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };
  for (const headers of [{}, { authorization: 'Bearer wrong' }] as Array<Record<string, string>>) {
    const denied = await post(url, body, headers);
    assert.equal(denied.status, 401);
    assert.equal(denied.json<{ error: { type: string; code: string } }>().error.code, 'invalid_api_key');
  }
  assert.equal((await post(url, body, { authorization: 'Bearer sk-small' })).status, 200);
  const models = await fetch(`${fleet.providerBaseUrl('small')}/models`, { headers: { authorization: 'Bearer sk-small' } });
  const list = (await models.json()) as { object: string; data: Array<{ id: string; object: string; owned_by: string }> };
  assert.equal(list.object, 'list');
  assert.deepEqual(list.data.map((m) => [m.id, m.object, m.owned_by]), [['gpt-4o-mini', 'model', 'small']]);
  assert.equal((await fetch(`${fleet.providerBaseUrl('small')}/models`)).status, 401);
});
