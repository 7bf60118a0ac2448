// An upstream that refuses Warden's key is a configuration fault: audited, notified, the
// next model tried, and the route not blamed. It recurs on every request while it lasts, so it
// is audited and notified once per route per window, the next one counting those held back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { Fleet } from '../../src/sim/index.js';
import { RECURRING_WINDOW_MS } from '../../src/telemetry/audit.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness } from '../helpers/harness.js';
import { startReceiver } from '../helpers/webhook.js';

test('a 401 from the upstream is a config fault, not a route failure', async () => {
  const hook = await startReceiver();
  const config = (fleet: Fleet) => `
notify: { webhooks: ["${hook.url}"], retries: 0 }
providers:
  locked: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('locked')}", apiKey: "wrong-key" }
  open:   { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('open')}" }
models:
  first:  { provider: locked, model: m1 }
  second: { provider: open, model: m2 }
roles:
  chat: { tier: degrade, models: [first, second], maxFallbacks: 1 }
`;
  const clock = new ManualClock();
  const h = await startHarness({ clock, scenario: { seed: 1, providers: { locked: { models: ['m1'], apiKey: 'right-key' }, open: { models: ['m2'] } } }, configYaml: config });
  const faults = () => h.gateway.store.audit(10, { type: 'config_fault' });
  const ask = () => h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'hi' }] });
  try {
    for (let i = 0; i < 6; i++) {
      const { response } = await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
      assert.equal(response.headers.get('x-warden-route'), 'second@open');
      assert.equal(response.headers.get('x-warden-fallback'), 'config:upstream_status_401 at first@locked');
    }
    assert.equal(h.gateway.breakers.state('first@locked'), 'closed', 'six refusals never open the breaker');
    assert.equal(faults().length, 1, 'six refusals in a row are one fault, not six');
    await h.gateway.notifier.settled();
    assert.deepEqual(hook.received.filter((n) => n.type === 'config_fault').map((n) => n.route), ['first@locked'], 'one webhook');
    clock.advance(RECURRING_WINDOW_MS - 1);
    await ask();
    assert.equal(faults().length, 1, 'still within the window');
    clock.advance(1);
    await ask();
    const [latest] = faults();
    assert.equal(faults().length, 2);
    assert.deepEqual([latest!.detail.heldBack, latest!.detail.heldBackWindow], [6, '5m'], 'the next one counts those held back');
    await h.gateway.notifier.settled();
    assert.equal(hook.received.filter((n) => n.type === 'config_fault').length, 2);
    assert.ok(!JSON.stringify(hook.received).includes('wrong-key'), 'the key is never sent out');
  } finally {
    await h.close();
    await hook.close();
  }
});

test('a model named directly whose upstream refuses Warden\'s key answers 502 upstream_auth_failed, not the upstream\'s 401', async () => {
  const config = (fleet: Fleet) => `
providers:
  locked: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('locked')}", apiKey: "wrong-key" }
models:
  first: { provider: locked, model: m1 }
`;
  const h = await startHarness({ scenario: { seed: 1, providers: { locked: { models: ['m1'], apiKey: 'right-key' } } }, configYaml: config });
  try {
    // A 401 passed through would tell the client its own key is wrong, and the openai client would raise AuthenticationError.
    await assert.rejects(h.client.chat.completions.create({ model: 'first', messages: [{ role: 'user', content: 'hi' }] }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.APIError);
      assert.equal(e.status, 502);
      assert.equal(e.code, 'upstream_auth_failed');
      assert.match(e.message, /first@locked refused the gateway's credentials \(401\)/);
      assert.ok(!e.message.includes('wrong-key'));
      return true;
    });
    assert.equal(h.gateway.breakers.state('first@locked'), 'closed');
  } finally {
    await h.close();
  }
});
