// Metric labels stay a bounded set whatever clients send: a route label is a route of the
// config or of discovery. A client can pin any endpoint name of a model whose endpoints are
// not known (its listing failed, or has not come back yet: the aggregator decides), and each
// name used to become a series of its own in every route-labelled metric.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { Fleet } from '../../src/sim/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';

// `ghost` is an OpenRouter model the fleet does not list: its discovery fails and it has no routes.
const config = (fleet: Fleet) => `
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
models:
  chat-main: { provider: openrouter, model: deepseek/deepseek-chat, routes: discover }
  ghost:     { provider: openrouter, model: ghost/model, routes: discover }
roles:
  chat: { tier: degrade, models: [chat-main] }
`;

const HELLO = [{ role: 'user' as const, content: 'Hello!' }];

describe('route labels', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ configYaml: config });
  });
  after(() => h.close());

  const routeLabels = async () => {
    const text = await (await fetch(`${h.url}/metrics`)).text();
    return new Set(Array.from(text.matchAll(/route="([^"]*)"/g), (m) => m[1]!));
  };

  test('endpoint names a client pins on an undiscovered model are counted under one label', async () => {
    assert.equal(h.gateway.catalog.get('ghost')!.routes.length, 0, 'the listing failed');
    for (let i = 0; i < 5; i++) {
      const pinned = `ghost@openrouter/Made-Up-${i}`;
      await assert.rejects(h.client.chat.completions.create({ model: pinned, messages: HELLO }), (e: unknown) => {
        assert.ok(e instanceof OpenAI.APIError, String(e));
        assert.equal(e.headers?.get('x-warden-route'), pinned, 'the answer still names the pinned route');
        return true;
      });
    }
    const ghosts = [...(await routeLabels())].filter((r) => r.startsWith('ghost@'));
    assert.deepEqual(ghosts, ['ghost@openrouter/(unlisted)']);
  });

  test('discovered routes keep labels of their own', async () => {
    await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
    const served = [...(await routeLabels())].filter((r) => r.startsWith('chat-main@openrouter/'));
    assert.ok(served.length > 0 && served.every((r) => h.gateway.catalog.routes().some((route) => route.id === r)), served.join(', '));
  });
});
