// Each injected fault, forced with `x-sim-fault`, shows its symptom on the wire.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ask, chunks, contentOf, fleetFor, post, postStream, streamedText } from './fleet-helpers.js';

const forced = (fault: string) => ({ 'x-sim-fault': fault });

test('error500, error502, error503 and rateLimit answer with their status and an error body', async (t) => {
  const fleet = await fleetFor(t, { seed: 1, providers: { Alpha: { models: ['m'], retryAfter: 7 } } });
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
  for (const [fault, status] of [['error500', 500], ['error502', 502], ['error503', 503], ['rateLimit', 429]] as const) {
    for (const stream of [false, true]) {
      const answer = await post(url, { ...body, stream }, forced(fault));
      assert.equal(answer.status, status, `${fault} stream=${stream}`);
      const { error } = answer.json<{ error: { message: string; type: string } }>();
      assert.ok(error.message && error.type);
      if (fault === 'rateLimit') assert.equal(answer.headers.get('retry-after'), '7');
    }
  }
  const stats = fleet.stats();
  assert.equal(stats.providers.Alpha?.faults.error503, 2);
  assert.equal(stats.providers.Alpha?.faults.rateLimit, 2);
});

test('hang sends nothing and stays open until the client goes away', async (t) => {
  const fleet = await fleetFor(t);
  const abort = new AbortController();
  const pending = fetch(`${fleet.providerBaseUrl('Alpha')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...forced('hang') },
    body: JSON.stringify(ask('hi')),
    signal: abort.signal,
  });
  await fleet.waitFor((s) => s.providers.Alpha?.faults.hang === 1 && s.openRequests === 1);
  abort.abort();
  await assert.rejects(pending);
  const stats = await fleet.waitFor((s) => s.openRequests === 0);
  assert.deepEqual(
    stats.recent.map((r) => [r.fault, r.status]),
    [['hang', 0]],
  );
});

test('reset cuts the connection after part of the reply', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const streamed = await postStream(url, ask('hi', { stream: true }), forced('reset'));
  assert.equal(streamed.status, 200);
  assert.ok(streamed.broken, 'the stream ends abnormally');
  assert.ok(!streamed.events.includes('[DONE]'));
  assert.ok(chunks(streamed).length >= 2, 'a few chunks came first');

  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...forced('reset') }, body: JSON.stringify(ask('hi')) });
  assert.equal(res.status, 200);
  await assert.rejects(res.text());
  await fleet.waitFor((s) => s.openRequests === 0 && s.openStreams === 0);
});

test('streamCut ends the response cleanly after part of the reply: no finish reason, no [DONE]', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const streamed = await postStream(url, ask('hi', { stream: true }), forced('streamCut'));
  assert.equal(streamed.status, 200);
  assert.ok(!streamed.broken, 'the response ends normally');
  assert.ok(!streamed.events.includes('[DONE]'));
  assert.ok(streamedText(streamed).length > 0, 'some content came first');
  assert.ok(chunks(streamed).every((c) => c.choices[0]?.finish_reason == null));
  const whole = await post(url, ask('hi'), forced('streamCut'));
  assert.equal(whole.status, 200);
  assert.throws(() => whole.json(), 'half a JSON body');
});

test('garbage is a 200 whose body is not JSON, streamed or not', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const whole = await post(url, ask('hi'), forced('garbage'));
  assert.equal(whole.status, 200);
  assert.throws(() => whole.json());
  const streamed = await postStream(url, ask('hi', { stream: true }), forced('garbage'));
  assert.equal(streamed.status, 200);
  assert.ok(streamed.invalid.length > 0);
});

test('streamError ends a stream with an error chunk then [DONE]; not streaming it is a 502', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const streamed = await postStream(url, ask('hi', { stream: true }), forced('streamError'));
  assert.equal(streamed.events.at(-1), '[DONE]');
  const last = chunks(streamed).at(-1);
  assert.deepEqual(last?.error, { code: 502, message: 'Provider returned error' });
  assert.equal(last?.choices[0]?.finish_reason, 'error');
  assert.ok(streamedText(streamed).length > 0, 'some content came before the error');
  assert.equal((await post(url, ask('hi'), forced('streamError'))).status, 502);
});

test('streamGarbage turns a stream to garbage after some content, then [DONE]; not streaming it is garbage', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const streamed = await postStream(url, ask('hi', { stream: true }), forced('streamGarbage'));
  assert.equal(streamed.status, 200);
  assert.ok(streamedText(streamed).length > 0, 'some content came before the garbage');
  assert.ok(streamed.invalid.length > 0);
  assert.equal(streamed.events.at(-1), '[DONE]');
  const whole = await post(url, ask('hi'), forced('streamGarbage'));
  assert.equal(whole.status, 200);
  assert.throws(() => whole.json());
});

test('text faults: prefix, drift, refusal, contentFilter, empty, mojibake, repetition, wrongFact', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const body = ask('Hello, how was your weekend?', { seed: 5 });
  const clean = contentOf(await post(url, body));

  const prefixed = contentOf(await post(url, body, forced('prefix')));
  assert.ok(prefixed.endsWith(clean) && prefixed !== clean, prefixed);
  assert.equal(streamedText(await postStream(url, { ...body, stream: true }, forced('prefix'))), prefixed);

  assert.match(contentOf(await post(url, body, forced('drift'))), /[\u4e00-\u9fff]/);
  const es = ask('Hola, ¿qué tal tu fin de semana?', { seed: 5 });
  const drifted = contentOf(await post(url, es, forced('drift')));
  assert.match(drifted, /ñ|¿|¡|á|é|í|ó|ú/, 'mostly Spanish');
  assert.match(drifted, /\b(você|não|a gente|uma|muito|tudo|foi)\b/, 'with Portuguese sentences');

  const refusal = await post(url, ask('这个周末过得怎么样？'), forced('refusal'));
  assert.equal(contentOf(refusal), '抱歉，我无法协助处理这个请求。');
  assert.equal(refusal.json().choices[0]?.finish_reason, 'stop');

  const filtered = await post(url, body, forced('contentFilter'));
  assert.equal(filtered.json().choices[0]?.finish_reason, 'content_filter');
  assert.ok(contentOf(filtered).length < clean.length);

  const empty = await post(url, body, forced('empty'));
  assert.equal(contentOf(empty), '');
  assert.equal(empty.json().choices[0]?.finish_reason, 'stop');

  assert.match(contentOf(await post(url, body, forced('mojibake'))), /â€™|Ã|\uFFFD/);
  assert.match(contentOf(await post(url, ask('¿Qué planes tienes?', { seed: 5 }), forced('mojibake'))), /Ã|Â/);

  const looped = await post(url, { ...body, max_tokens: 100 }, forced('repetition'));
  assert.equal(looped.json().choices[0]?.finish_reason, 'length');
  const text = contentOf(looped);
  const sentence = text.split(/(?<=[.!?])\s/)[0] ?? '';
  assert.ok(text.split(sentence).length > 4, 'one sentence over and over');

  assert.equal(contentOf(await post(url, ask('What is the capital of France?'), forced('wrongFact'))), 'Lyon');
  assert.equal(contentOf(await post(url, ask('法国的首都是哪里？'), forced('wrongFact'))), '里昂');
});

test('brokenJson breaks structured output and is no fault without response_format', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const schema = { type: 'object', properties: { city: { type: 'string' }, country: { type: 'string' } }, required: ['city', 'country'] };
  let broken = 0;
  for (let seed = 0; seed < 8; seed++) {
    const answer = await post(url, ask('Capital of France?', { seed, response_format: { type: 'json_schema', json_schema: { schema } } }), forced('brokenJson'));
    const text = contentOf(answer);
    let valid = false;
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      valid = 'city' in value && 'country' in value;
    } catch {
      valid = false;
    }
    if (!valid) broken++;
  }
  assert.equal(broken, 8, 'every reply is unusable as the schema asks');
  const plain = await post(url, ask('hi', { seed: 1 }), forced('brokenJson'));
  assert.equal(contentOf(plain), contentOf(await post(url, ask('hi', { seed: 1 }))));
  const stats = await fleet.waitFor((s) => s.requests === 10);
  assert.equal(stats.providers.Alpha?.faults.brokenJson, 8);
  assert.equal(stats.recent.at(-2)?.fault, null, 'recorded as no fault');
});

test('x-sim-fault none forces a clean reply from a faulty provider', async (t) => {
  const fleet = await fleetFor(t, { seed: 1, providers: { Beta: { models: ['m'], faults: { error503: 1 } } } });
  const url = `${fleet.providerBaseUrl('Beta')}/chat/completions`;
  const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
  assert.equal((await post(url, body)).status, 503);
  assert.equal((await post(url, body, forced('none'))).status, 200);
  assert.equal((await post(url, body, forced('Beta=none'))).status, 200);
});

test('n choices: each is its own reply; lastChoicePrefix damages the last alone, and its admin switch sets it', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const body = ask('Hello, how was your weekend?', { seed: 5, n: 3 });
  const clean = (await post(url, body)).json();
  assert.deepEqual(clean.choices.map((c) => c.index), [0, 1, 2]);
  assert.equal(clean.choices[0]?.message.content, contentOf(await post(url, ask('Hello, how was your weekend?', { seed: 5 }))), 'choice 0 is the one-choice reply');
  assert.equal(new Set(clean.choices.map((c) => c.message.content)).size, 3, 'the choices differ');
  const tokens = clean.choices.reduce((sum, c) => sum + c.message.content!.length, 0);
  assert.ok(clean.usage!.completion_tokens > 0 && clean.usage!.completion_tokens <= tokens, 'every choice is billed');

  const admin = await fetch(`${fleet.url}/sim/providers/Alpha/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ lastChoicePrefix: 1 }) });
  assert.equal(admin.status, 200);
  const damaged = (await post(url, body)).json();
  assert.equal(damaged.choices[0]?.message.content, clean.choices[0]?.message.content);
  assert.equal(damaged.choices[1]?.message.content, clean.choices[1]?.message.content);
  const last = damaged.choices[2]!.message.content!;
  assert.ok(last.endsWith(clean.choices[2]!.message.content!) && last !== clean.choices[2]!.message.content, last);
  const stats = await fleet.waitFor((s) => s.requests === 3);
  assert.equal(stats.providers.Alpha?.faults.lastChoicePrefix, 1);

  const bad = await post(url, ask('hi', { n: 0 }));
  assert.equal(bad.status, 400);
  assert.match(bad.json<{ error: { message: string; param: string } }>().error.message, /'n' must be an integer from 1 to 128/);
});

test('n choices streamed: interleaved one per event, each choice’s text the non-streamed one, its own finish, usage once at the end; lastChoicePrefix damages the last alone', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  const body = ask('Hello, how was your weekend?', { seed: 5, n: 3 });
  const textsOf = (streamed: Awaited<ReturnType<typeof postStream>>) => {
    const texts = ['', '', ''];
    for (const chunk of chunks(streamed)) for (const c of chunk.choices) texts[c.index] += c.delta.content ?? '';
    return texts;
  };
  for (const faults of [{}, { lastChoicePrefix: 1 }]) {
    fleet.setFaults('Alpha', faults);
    const whole = (await post(url, body)).json().choices.map((c) => c.message.content);
    const streamed = await postStream(url, { ...body, stream: true, stream_options: { include_usage: true } });
    assert.deepEqual(textsOf(streamed), whole, JSON.stringify(faults));
    const events = chunks(streamed);
    assert.ok(events.every((e) => e.choices.length <= 1), 'one choice per event');
    const indices = events.flatMap((e) => e.choices.map((c) => c.index));
    assert.deepEqual(indices.slice(0, 3), [0, 1, 2], 'each choice opens with its role');
    assert.ok(indices.indexOf(1) < indices.lastIndexOf(0), 'the choices interleave');
    const finishes = events.flatMap((e) => e.choices.filter((c) => c.finish_reason !== null).map((c) => [c.index, c.finish_reason]));
    assert.deepEqual(finishes.sort(), [[0, 'stop'], [1, 'stop'], [2, 'stop']]);
    const usage = events.filter((e) => e.usage);
    assert.equal(usage.length, 1);
    assert.equal(events.at(-1), usage[0], 'usage comes last');
    assert.equal(streamed.events.at(-1), '[DONE]');
  }
  const damaged = textsOf(await postStream(url, { ...body, stream: true }));
  fleet.setFaults('Alpha', {});
  const clean = textsOf(await postStream(url, { ...body, stream: true }));
  assert.deepEqual(damaged.slice(0, 2), clean.slice(0, 2));
  assert.ok(damaged[2]!.endsWith(clean[2]!) && damaged[2] !== clean[2], damaged[2]);
});
