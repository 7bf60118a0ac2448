// Faults follow the inference endpoint (seed 000): an OpenRouter model's endpoints are
// routes of their own, with their own breakers, kept out through provider.ignore and
// probed back by pinning.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { Fleet } from '../../src/sim/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const SCENARIO = {
  seed: 5,
  providers: {
    Stray: { models: ['deepseek/deepseek-chat'], faults: { prefix: 1 } },
    Alpha: { models: ['deepseek/deepseek-chat'] },
    Beta: { models: ['deepseek/deepseek-chat'] },
  },
};

const config = (fleet: Fleet) => `
breaker: { failures: 3, cooldown: 10s }
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
models:
  chat-main: { provider: openrouter, model: deepseek/deepseek-chat, routes: discover }
roles:
  chat: { tier: degrade, models: [chat-main], checks: [prefix], maxFallbacks: 2 }
`;

const HELLO = [{ role: 'user' as const, content: 'Hi! What are you up to this evening?' }];

describe('OpenRouter endpoints as routes', () => {
  let h: Harness;
  const clock = new ManualClock();
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: config, clock });
  });
  after(() => h.close());

  test('a stray prefix from one endpoint is retried on the same model with that endpoint ignored', async () => {
    const { data, response } = await h.client.chat.completions.create({ model: 'chat', messages: HELLO }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'chat-main@openrouter/Alpha');
    assert.match(response.headers.get('x-warden-fallback') ?? '', /^quality:\w+ at chat-main@openrouter\/Stray$/);
    const recent = h.fleet.stats().recent.slice(-2);
    assert.deepEqual(recent.map((r) => [r.served, r.providerPrefs]), [['Stray', null], ['Alpha', { ignore: ['stray'] }]]);
    assert.ok(!/^[*"」.:]/.test(data.choices[0]!.message.content!));
  });

  test('an endpoint whose breaker opens is ignored, then probed back by pinning one request', async () => {
    h.fleet.setFaults('Beta', { error503: 1 });
    for (let i = 0; i < 3; i++) {
      await assert.rejects(h.client.chat.completions.create({ model: 'chat-main@openrouter/Beta', messages: HELLO }), OpenAI.InternalServerError);
    }
    assert.equal(h.gateway.breakers.state('chat-main@openrouter/Beta'), 'open');
    h.fleet.setFaults('Stray', {});
    await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { ignore: ['beta'] });

    h.fleet.setFaults('Beta', {});
    clock.advance(10_001);
    const { response } = await h.client.chat.completions.create({ model: 'chat', messages: HELLO }).withResponse();
    assert.deepEqual(h.fleet.stats().recent.at(-1)!.providerPrefs, { order: ['beta'], allow_fallbacks: false });
    assert.equal(response.headers.get('x-warden-route'), 'chat-main@openrouter/Beta');
    assert.equal(h.gateway.breakers.state('chat-main@openrouter/Beta'), 'closed');
    await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
    assert.equal(h.fleet.stats().recent.at(-1)!.providerPrefs, null, 'nothing left to ignore');
  });

  test('a recovery probe that fails falls back to another endpoint: its pin is not taken for the client\'s preference', async () => {
    h.fleet.setFaults('Beta', { error503: 1 });
    h.fleet.setFaults('Stray', {});
    for (let i = 0; i < 3; i++) {
      await assert.rejects(h.client.chat.completions.create({ model: 'chat-main@openrouter/Beta', messages: HELLO }), OpenAI.InternalServerError);
    }
    assert.equal(h.gateway.breakers.state('chat-main@openrouter/Beta'), 'open');
    clock.advance(20_001);
    // Beta is still failing when its cooldown ends: the role request carries the probe, which fails.
    const { response } = await h.client.chat.completions.create({ model: 'chat', messages: HELLO }).withResponse();
    const [probe, fallback] = h.fleet.stats().recent.slice(-2);
    assert.deepEqual(probe!.providerPrefs, { order: ['beta'], allow_fallbacks: false });
    assert.deepEqual(fallback!.providerPrefs, { ignore: ['beta'] }, 'no order, no allow_fallbacks left over from the probe');
    assert.notEqual(response.headers.get('x-warden-route'), 'chat-main@openrouter/Beta');
    assert.equal(response.headers.get('x-warden-fallback'), 'transport:upstream_status_503 at chat-main@openrouter/Beta');
    h.fleet.setFaults('Beta', {});
  });
});
