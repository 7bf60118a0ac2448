// A route passed over because its provider is at Warden's own concurrency quota
// (providers.<p>.maxConcurrency) was not failed by the provider: the fallback header, the
// ledger line and the metrics say `shed:provider_quota_full`, never `transport:…`, and the
// route's breaker hears nothing of it. The official openai client against the simulated fleet.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fleet } from '../../src/sim/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { metricsText, seriesValue } from '../helpers/metrics.js';

// One failure would open a breaker: a pass-over counted against the route would show at once.
const config = (fleet: Fleet) => `
breaker: { failures: 1, cooldown: 30s }
providers:
  slowdirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Slow')}", maxConcurrency: 1 }
  direct:     { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}" }
models:
  slow:       { provider: slowdirect, model: slow/model }
  chat-small: { provider: direct, model: gpt-4o-mini }
roles:
  busy: { tier: degrade, models: [slow, chat-small] }
`;

const HELLO = [{ role: 'user' as const, content: 'Hello!' }];

describe('a provider at its concurrency quota', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ configYaml: config, clock: new ManualClock() });
  });
  after(() => h.close());

  test('is passed over as shed, not as a transport failure, and its route is not blamed', async () => {
    // The one slot of slowdirect is held by a long stream.
    const holding = await h.client.chat.completions.create({ model: 'slow', messages: HELLO, stream: true });
    await h.fleet.waitFor((s) => s.providers.Slow!.openStreams === 1);

    for (let i = 0; i < 2; i++) {
      const { data, response } = await h.client.chat.completions.create({ model: 'busy', messages: HELLO }).withResponse();
      assert.ok(data.choices[0]!.message.content);
      assert.equal(response.headers.get('x-warden-route'), 'chat-small@direct');
      assert.equal(response.headers.get('x-warden-fallback'), 'shed:provider_quota_full at slow@slowdirect');
    }
    assert.equal(h.fleet.stats().providers.Slow!.requests, 1, 'the provider never saw the passed-over attempts');

    const breaker = h.gateway.breakers.snapshot('slow@slowdirect');
    assert.equal(breaker?.state ?? 'closed', 'closed');
    assert.equal(breaker?.consecutiveFailures ?? 0, 0, 'a pass-over is no failure of the route');
    assert.equal(h.gateway.control.views().find((v) => v.id === 'slow@slowdirect')!.state, 'healthy');

    const ledger = h.gateway.store.ledger(10).filter((l) => l.role === 'busy');
    assert.equal(ledger.length, 2);
    for (const line of ledger) assert.deepEqual([line.primaryRoute, line.reason, line.finalRoute], ['slow@slowdirect', 'shed:provider_quota_full', 'chat-small@direct']);

    const text = await metricsText(h.url);
    assert.equal(seriesValue(text, 'warden_fallbacks_total{role="busy",reason="shed:provider_quota_full",from_model="slow",to_model="chat-small"}'), 2);
    assert.equal(seriesValue(text, 'warden_fallbacks_total{role="busy",reason="transport:provider_quota_full",from_model="slow",to_model="chat-small"}'), 0);
    assert.equal(seriesValue(text, 'warden_upstream_attempts_total{route="slow@slowdirect",error_class="shed"}'), 2);

    holding.controller.abort();
  });
});
