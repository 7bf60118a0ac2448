// OpenRouter's provider routing takes slugs ("google-ai-studio"), and drops without a word an
// entry it does not recognise; answers name the provider by display name ("Google AI Studio").
// The fleet here plays OpenRouter's documented contract strictly (`routingNames: slugs`), with
// display names that differ from their slugs beyond case, so a display name sent where a slug
// is needed would pin nothing and ignore nothing.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { Fleet } from '../../src/sim/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const MODEL = 'deepseek/deepseek-chat';
const SCENARIO = {
  seed: 11,
  routingNames: 'slugs',
  providers: {
    'Google AI Studio': { models: [MODEL] },
    'Amazon Bedrock': { models: [MODEL] },
    DeepInfra: { models: [MODEL], quantization: 'fp8' },
  },
};
const TOKEN = 'slug-admin';
const HELLO = [{ role: 'user' as const, content: 'Hi! What are you up to this evening?' }];

const discovered = (fleet: Fleet) => `
server: { adminToken: "${TOKEN}" }
breaker: { failures: 3, cooldown: 10s }
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
models:
  chat-main: { provider: openrouter, model: ${MODEL}, routes: discover }
canary: { watch: [chat-main], firstTokenLimit: 5s, mode: observe, languages: [en] }
`;

describe('OpenRouter provider routing by slug, endpoints discovered', () => {
  let h: Harness;
  const clock = new ManualClock();
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: discovered, clock });
  });
  after(() => h.close());
  beforeEach(() => clock.advance(60_000));

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${h.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const last = () => h.fleet.stats().recent.at(-1)!;

  test('a pinned route id reaches the endpoint by its slug; the answer maps back to the route by display name', async () => {
    const { data, response } = await h.client.chat.completions.create({ model: 'chat-main@openrouter/Amazon Bedrock', messages: HELLO }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'chat-main@openrouter/Amazon Bedrock');
    assert.equal((data as unknown as { provider: string }).provider, 'Amazon Bedrock');
    assert.deepEqual(last().providerPrefs, { order: ['amazon-bedrock'], allow_fallbacks: false });
    assert.deepEqual(last().unmatchedProviders, [], 'every entry named a provider');
    assert.equal(last().served, 'Amazon Bedrock');
  });

  test('a blocked endpoint is ignored by its slug, and the fleet honours it', async () => {
    const added = await admin('POST', '/admin/blocklist', { route: 'chat-main@openrouter/Google AI Studio', reason: 'incident: garbled replies' });
    assert.equal(added.status, 201);
    try {
      const { response } = await h.client.chat.completions.create({ model: 'chat-main', messages: HELLO }).withResponse();
      assert.deepEqual(last().providerPrefs, { ignore: ['google-ai-studio'] });
      assert.deepEqual(last().unmatchedProviders, []);
      assert.equal(last().served, 'Amazon Bedrock', 'the first endpoint in the fleet\u2019s order is kept out');
      assert.equal(response.headers.get('x-warden-route'), 'chat-main@openrouter/Amazon Bedrock');

      // The client's own ignore, by display name, is merged without a second entry for the same endpoint.
      await h.client.chat.completions.create({ model: 'chat-main', messages: HELLO, provider: { ignore: ['deepinfra', 'Google AI Studio'] } } as OpenAI.ChatCompletionCreateParamsNonStreaming);
      assert.deepEqual(last().providerPrefs, { ignore: ['deepinfra', 'Google AI Studio'] });
    } finally {
      assert.equal((await admin('DELETE', `/admin/blocklist/${added.body.id}`)).status, 200);
    }
  });

  test('an endpoint whose breaker opens is ignored by slug; its recovery probe pins it by slug', async () => {
    h.fleet.setFaults('DeepInfra', { error503: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        await assert.rejects(h.client.chat.completions.create({ model: 'chat-main@openrouter/DeepInfra', messages: HELLO }), OpenAI.InternalServerError);
        assert.deepEqual(last().providerPrefs, { order: ['deepinfra'], allow_fallbacks: false }, 'the provider slug, not the endpoint tag deepinfra/fp8');
      }
      assert.equal(h.gateway.breakers.state('chat-main@openrouter/DeepInfra'), 'open');
    } finally {
      h.fleet.setFaults('DeepInfra', {});
    }
    await h.client.chat.completions.create({ model: 'chat-main', messages: HELLO, provider: { order: ['deepinfra', 'amazon-bedrock'] } } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    assert.deepEqual(last().providerPrefs, { order: ['deepinfra', 'amazon-bedrock'], ignore: ['deepinfra'] });
    assert.equal(last().served, 'Amazon Bedrock');

    clock.advance(10_001);
    const { response } = await h.client.chat.completions.create({ model: 'chat-main', messages: HELLO }).withResponse();
    assert.deepEqual(last().providerPrefs, { order: ['deepinfra'], allow_fallbacks: false });
    assert.equal(response.headers.get('x-warden-route'), 'chat-main@openrouter/DeepInfra');
    assert.equal(h.gateway.breakers.state('chat-main@openrouter/DeepInfra'), 'closed');
  });

  test('the client\u2019s own preferences by slug, endpoint tag or display name still decide which endpoints Warden may use', async () => {
    for (const [provider, served] of [
      [{ only: ['amazon-bedrock'] }, 'Amazon Bedrock'],
      [{ order: ['deepinfra/fp8'], allow_fallbacks: false }, 'DeepInfra'],
      [{ ignore: ['google-ai-studio'] }, 'Amazon Bedrock'],
    ] as const) {
      const { response } = await h.client.chat.completions.create({ model: 'chat-main', messages: HELLO, provider } as OpenAI.ChatCompletionCreateParamsNonStreaming).withResponse();
      assert.equal(last().served, served, JSON.stringify(provider));
      assert.equal(response.headers.get('x-warden-route'), `chat-main@openrouter/${served}`);
    }
    // A pinned route the client's own list excludes, whichever name the list uses, is Warden's 400.
    for (const provider of [{ ignore: ['Amazon Bedrock'] }, { only: ['google-ai-studio'] }]) {
      const error = await h.client.chat.completions
        .create({ model: 'chat-main@openrouter/Amazon Bedrock', messages: HELLO, provider } as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .then(() => assert.fail('expected a 400'), (e: unknown) => e);
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal((error.error as { code?: string }).code, 'pinned_endpoint_excluded');
    }
  });

  test('canary probes pin each endpoint by its slug', async () => {
    const before = h.fleet.stats().recent.length;
    await h.gateway.canary!.runRound();
    const pinned = h.fleet.stats().recent.slice(before).filter((r) => r.path.endsWith('/chat/completions'));
    assert.ok(pinned.length > 0);
    for (const r of pinned) {
      assert.deepEqual(r.unmatchedProviders, [], JSON.stringify(r.providerPrefs));
      const slug = { 'Google AI Studio': 'google-ai-studio', 'Amazon Bedrock': 'amazon-bedrock', DeepInfra: 'deepinfra' }[r.served!];
      assert.deepEqual(r.providerPrefs, { order: [slug], allow_fallbacks: false });
    }
    assert.deepEqual(new Set(pinned.map((r) => r.served)), new Set(['Google AI Studio', 'Amazon Bedrock', 'DeepInfra']));
  });
});

describe('OpenRouter provider routing by slug, endpoints listed in the config', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      scenario: SCENARIO,
      configYaml: (fleet) => `
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
models:
  chat-main:
    provider: openrouter
    model: ${MODEL}
    routes: [{ name: Google AI Studio, slug: google-ai-studio }, DeepInfra]
`,
    });
  });
  after(() => h.close());

  test('a listed route sends the slug the config gives, or its name when it gives none', async () => {
    for (const [route, sent] of [['Google AI Studio', 'google-ai-studio'], ['DeepInfra', 'DeepInfra']]) {
      const { response } = await h.client.chat.completions.create({ model: `chat-main@openrouter/${route}`, messages: HELLO }).withResponse();
      assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { order: [sent], allow_fallbacks: false });
      assert.equal(h.fleet.stats().recent.at(-1)!.served, route);
      assert.equal(response.headers.get('x-warden-route'), `chat-main@openrouter/${route}`);
    }
  });
});
