// The OpenRouter-style aggregator: provider preferences, fallback, the `provider` field, listings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidatesFor } from '../../src/sim/openrouter.js';
import { ask, BASE_SCENARIO, chunks, fleetFor, MODEL, post, postStream } from './fleet-helpers.js';

const serving = ['Alpha', 'Beta', 'Gamma'].map((name) => ({ name, slug: name.toLowerCase(), tag: name.toLowerCase() }));
// Display names that differ from their slugs beyond case, and one provider with two variants' tag.
const named = [
  { name: 'Google AI Studio', slug: 'google-ai-studio', tag: 'google-ai-studio' },
  { name: 'Amazon Bedrock', slug: 'amazon-bedrock', tag: 'amazon-bedrock' },
  { name: 'DeepInfra', slug: 'deepinfra', tag: 'deepinfra/fp8' },
];

test('candidates: scenario order by default; only, ignore and order compare case-insensitively', () => {
  assert.deepEqual(candidatesFor(serving, undefined).names, ['Alpha', 'Beta', 'Gamma']);
  assert.deepEqual(candidatesFor(serving, { only: ['gamma', 'ALPHA'] }).names, ['Alpha', 'Gamma']);
  assert.deepEqual(candidatesFor(serving, { ignore: ['beta'] }).names, ['Alpha', 'Gamma']);
  assert.deepEqual(candidatesFor(serving, { order: ['gamma', 'beta'] }).names, ['Gamma', 'Beta', 'Alpha']);
  assert.deepEqual(candidatesFor(serving, { order: ['Gamma'], ignore: ['Gamma'] }).names, ['Alpha', 'Beta']);
});

test('candidates: slugs and endpoint tags name a provider; display names only where the fleet accepts them', () => {
  for (const mode of ['slugs', 'slugs-and-names'] as const) {
    assert.deepEqual(candidatesFor(named, { order: ['amazon-bedrock'], allow_fallbacks: false }, mode), { names: ['Amazon Bedrock'], allowFallbacks: false, unmatched: [] });
    assert.deepEqual(candidatesFor(named, { ignore: ['Google-AI-Studio', 'deepinfra/FP8'] }, mode).names, ['Amazon Bedrock']);
  }
  // What OpenRouter documents: a display name is no slug, and an entry naming nothing is dropped without a word.
  assert.deepEqual(candidatesFor(named, { order: ['Google AI Studio'], allow_fallbacks: false }, 'slugs'), { names: [], allowFallbacks: false, unmatched: ['Google AI Studio'] });
  assert.deepEqual(candidatesFor(named, { ignore: ['Google AI Studio'] }, 'slugs').names, ['Google AI Studio', 'Amazon Bedrock', 'DeepInfra']);
  // What it accepts in practice.
  assert.deepEqual(candidatesFor(named, { ignore: ['google ai studio'], only: ['AMAZON BEDROCK', 'deepinfra'] }, 'slugs-and-names'), { names: ['Amazon Bedrock', 'DeepInfra'], allowFallbacks: true, unmatched: [] });
});

test('candidates: allow_fallbacks false keeps only the providers named in order, else in only', () => {
  assert.deepEqual(candidatesFor(serving, { order: ['Beta'], allow_fallbacks: false }), { names: ['Beta'], allowFallbacks: false, unmatched: [] });
  assert.deepEqual(candidatesFor(serving, { only: ['Gamma'], allow_fallbacks: false }).names, ['Gamma']);
  assert.deepEqual(candidatesFor(serving, { allow_fallbacks: false }).names, ['Alpha']);
  assert.deepEqual(candidatesFor(serving, { order: ['Nobody'], allow_fallbacks: false }), { names: [], allowFallbacks: false, unmatched: ['Nobody'] });
});

test('responses name the provider that answered, in the body and in every chunk', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.openrouterBaseUrl}/chat/completions`;
  const whole = await post(url, ask('hi', { provider: { order: ['beta'] } }));
  assert.equal(whole.status, 200);
  assert.equal(whole.json().provider, 'Beta');
  const streamed = await postStream(url, ask('hi', { stream: true, stream_options: { include_usage: true }, provider: { only: ['Gamma'] } }));
  const all = chunks(streamed);
  assert.ok(all.length > 3);
  for (const c of all) assert.equal(c.provider, 'Gamma');
  assert.equal((await post(url, ask('hi', { provider: { ignore: ['Alpha'] } }))).json().provider, 'Beta');
});

test('a pre-response failure falls back to the next provider when fallbacks are allowed', async (t) => {
  const fleet = await fleetFor(t);
  fleet.setFaults('Alpha', { error503: 1 });
  const url = `${fleet.openrouterBaseUrl}/chat/completions`;
  const answer = await post(url, ask('hi'));
  assert.equal(answer.status, 200);
  assert.equal(answer.json().provider, 'Beta');
  const stats = fleet.stats();
  assert.equal(stats.providers.Alpha?.faults.error503, 1);
  assert.equal(stats.providers.Alpha?.requests, 1);
  assert.equal(stats.providers.Beta?.requests, 1);
  assert.deepEqual(stats.recent.at(-1)?.tried, ['Alpha']);
  assert.equal(stats.recent.at(-1)?.served, 'Beta');

  const pinned = await post(url, ask('hi', { provider: { order: ['Alpha'], allow_fallbacks: false } }));
  assert.equal(pinned.status, 503, 'no fallback when allow_fallbacks is false');
  const last = fleet.stats().recent.at(-1);
  assert.deepEqual([last?.served, last?.fault, last?.status], ['Alpha', 'error503', 503]);
});

test('a forced fault for one provider lets the request fall back; every provider failing ends in the last error', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.openrouterBaseUrl}/chat/completions`;
  const one = await post(url, ask('hi'), { 'x-sim-fault': 'Alpha=rateLimit' });
  assert.equal(one.json().provider, 'Beta');
  const all = await post(url, ask('hi'), { 'x-sim-fault': 'error502' });
  assert.equal(all.status, 502);
  assert.deepEqual(fleet.stats().recent.at(-1)?.tried, ['Alpha', 'Beta']);
  const served = await post(url, ask('hi'), { 'x-sim-fault': 'Alpha=prefix' });
  assert.equal(served.json().provider, 'Alpha', 'a content fault is served, not skipped');
});

test('no eligible provider is a 404; an unknown model too', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.openrouterBaseUrl}/chat/completions`;
  const none = await post(url, ask('hi', { provider: { only: ['Nobody'] } }));
  assert.equal(none.status, 404);
  assert.match(none.json<{ error: { message: string } }>().error.message, /No allowed providers are available for the selected model/);
  const unknown = await post(url, { ...ask('hi'), model: 'nobody/nothing' });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.json<{ error: { code: string } }>().error.code, 'model_not_found');
});

test('processingComments sends OpenRouter keep-alive comments before the first token', async (t) => {
  const fleet = await fleetFor(t, { seed: 1, providers: { Slow: { models: [MODEL], firstTokenMs: 20, processingComments: true } } });
  const streamed = await postStream(`${fleet.openrouterBaseUrl}/chat/completions`, ask('hi', { stream: true }));
  assert.ok(streamed.comments.includes(': OPENROUTER PROCESSING'));
  assert.equal(streamed.events.at(-1), '[DONE]');
  const direct = await postStream(`${fleet.providerBaseUrl('Slow')}/chat/completions`, ask('hi', { stream: true }));
  assert.deepEqual(direct.comments, [], 'only the OpenRouter path sends them');
});

test('the endpoints listing describes each provider of a model', async (t) => {
  const fleet = await fleetFor(t);
  const res = await fetch(`${fleet.openrouterBaseUrl}/models/${MODEL}/endpoints`);
  assert.equal(res.status, 200);
  type Endpoint = { name: string; provider_name: string; tag: string; quantization: string | null; pricing: Record<string, string>; context_length: number; status: number; supported_parameters: string[] };
  const { data } = (await res.json()) as { data: { id: string; name: string; architecture: { modality: string }; endpoints: Endpoint[] } };
  assert.equal(data.id, MODEL);
  assert.equal(data.name, 'DeepSeek Chat');
  assert.equal(data.architecture.modality, 'text->text');
  assert.deepEqual(data.endpoints.map((e) => e.provider_name), ['Alpha', 'Beta', 'Gamma']);
  const [alpha] = data.endpoints;
  assert.equal(alpha?.name, `Alpha | ${MODEL}`);
  assert.equal(alpha?.tag, 'alpha/fp8', 'the slug, and the variant after a "/"');
  assert.equal(alpha?.quantization, 'fp8');
  assert.equal(alpha?.context_length, 64000);
  assert.deepEqual(alpha?.pricing, { prompt: '0.0000003', completion: '0.0000012', request: '0', image: '0' });
  assert.equal(alpha?.status, 0);
  assert.ok(alpha?.supported_parameters.includes('response_format'));
  assert.equal((await fetch(`${fleet.openrouterBaseUrl}/models/nobody/nothing/endpoints`)).status, 404);
});

test('the model list covers every served model', async (t) => {
  const fleet = await fleetFor(t);
  const res = await fetch(`${fleet.openrouterBaseUrl}/models`);
  const { data } = (await res.json()) as { data: Array<{ id: string; name: string; context_length: number }> };
  const expected = new Set(Object.values(BASE_SCENARIO.providers).flatMap((p) => p.models));
  assert.deepEqual(new Set(data.map((m) => m.id)), expected);
  assert.equal(data.find((m) => m.id === MODEL)?.context_length, 64000);
});
