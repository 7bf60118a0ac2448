// The client's own OpenRouter `provider` preferences against Warden's out-of-service
// endpoints: Warden never sends a request where the client said it must not go, and when
// every endpoint the client allows is out of service it says so itself (503 with
// Retry-After) instead of relaying OpenRouter's "no allowed providers" 404.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { Fleet } from '../../src/sim/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const MODEL = 'deepseek/deepseek-chat';
const SCENARIO = { seed: 7, providers: { Alpha: { models: [MODEL] }, Beta: { models: [MODEL] }, Gamma: { models: [MODEL] } } };

const config = (fleet: Fleet) => `
breaker: { failures: 3, cooldown: 10s }
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
models:
  chat-main: { provider: openrouter, model: ${MODEL}, routes: discover }
`;

const HELLO = [{ role: 'user' as const, content: 'Hi! What are you up to this evening?' }];

describe('the client\u2019s provider preferences and Warden\u2019s out-of-service endpoints', () => {
  let h: Harness;
  const clock = new ManualClock();
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: config, clock });
  });
  after(() => h.close());

  async function openBreaker(endpoint: string): Promise<void> {
    h.fleet.setFaults(endpoint, { error503: 1 });
    for (let i = 0; i < 3; i++) {
      await assert.rejects(h.client.chat.completions.create({ model: `chat-main@openrouter/${endpoint}`, messages: HELLO }), OpenAI.InternalServerError);
    }
    assert.equal(h.gateway.breakers.state(`chat-main@openrouter/${endpoint}`), 'open');
    h.fleet.setFaults(endpoint, {});
  }

  beforeEach(() => clock.advance(60_000));

  const create = (provider: Record<string, unknown>) =>
    h.client.chat.completions.create({ model: 'chat-main', messages: HELLO, provider } as OpenAI.ChatCompletionCreateParamsNonStreaming);

  for (const [what, provider] of [
    ['only, by provider slug', { only: ['alpha'] }],
    ['order without fallbacks', { order: ['Alpha'], allow_fallbacks: false }],
    ['only, with the other endpoints ignored', { only: ['Alpha', 'beta'], ignore: ['BETA'] }],
  ] as const) {
    test(`${what}: every allowed endpoint out of service is Warden\u2019s 503, and OpenRouter is not asked`, async () => {
      await openBreaker('Alpha');
      const before = h.fleet.stats().recent.length;
      const error = await create(provider).then(
        () => assert.fail('expected a 503'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof OpenAI.InternalServerError, String(error));
      assert.equal(error.status, 503);
      assert.ok(Number(error.headers?.get('retry-after')) > 0);
      assert.match(error.message, /out of service/);
      assert.equal(h.fleet.stats().recent.length, before, 'no request reached the fleet');
    });
  }

  test('an allowed endpoint still in service serves, with the closed one ignored', async () => {
    await openBreaker('Alpha');
    const { response } = await create({ only: ['alpha', 'gamma'] }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'chat-main@openrouter/Gamma');
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { only: ['alpha', 'gamma'], ignore: ['alpha'] });
  });

  test('a recovery probe does not ride on a request whose client excluded that endpoint', async () => {
    await openBreaker('Beta');
    clock.advance(10_001);
    for (const provider of [{ ignore: ['beta'] }, { only: ['Gamma'] }, { order: ['gamma'], allow_fallbacks: false }]) {
      const { response } = await create(provider).withResponse().catch((e) => assert.fail(`${JSON.stringify(provider)}: ${e}`));
      const last = h.fleet.stats().recent.at(-1)!;
      assert.notEqual(last.served, 'Beta', JSON.stringify(provider));
      assert.notEqual(response.headers.get('x-warden-route'), 'chat-main@openrouter/Beta');
      assert.equal((last.providerPrefs as { order?: string[] }).order?.includes('beta') ?? false, false);
    }
    // A request that lets Beta serve carries the probe.
    await create({ only: ['beta', 'alpha'] }).catch((e) => assert.fail(`last: ${e} ${JSON.stringify(h.fleet.stats().recent.slice(-4).map((r) => [r.served, r.providerPrefs]))}`));
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { order: ['beta'], allow_fallbacks: false });
    assert.equal(h.gateway.breakers.state('chat-main@openrouter/Beta'), 'closed');
  });

  test('a model id that pins an endpoint the client\u2019s preferences exclude is a 400, and OpenRouter is not asked', async () => {
    const before = h.fleet.stats().recent.length;
    for (const provider of [{ only: ['gamma'] }, { ignore: ['ALPHA'] }, { order: ['Beta'], allow_fallbacks: false }]) {
      const pinned = { model: 'chat-main@openrouter/Alpha', messages: HELLO, provider } as OpenAI.ChatCompletionCreateParamsNonStreaming;
      const error = await h.client.chat.completions.create(pinned).then(() => assert.fail(JSON.stringify(provider)), (e: unknown) => e);
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.code, 'pinned_endpoint_excluded');
    }
    assert.equal(h.fleet.stats().recent.length, before);
    const { response } = await h.client.chat.completions
      .create({ model: 'chat-main@openrouter/Alpha', messages: HELLO, provider: { only: ['alpha'] } } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'chat-main@openrouter/Alpha');
  });
});
