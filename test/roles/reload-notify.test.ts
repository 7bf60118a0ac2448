// The webhooks reload without a restart: a notice after the reload goes to the new list only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/config/index.js';
import type { Fleet } from '../../src/sim/index.js';
import { startHarness } from '../helpers/harness.js';
import { startReceiver } from '../helpers/webhook.js';

test('a reloaded notify section sends the next notice to the new webhooks, not the old ones', async () => {
  const [first, second] = [await startReceiver(), await startReceiver()];
  const yaml = (fleet: Fleet, webhook: string) => `
notify: { webhooks: ["${webhook}"], retries: 0 }
breaker: { failures: 1 }
providers:
  bad: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('bad')}" }
models:
  one: { provider: bad, model: m1 }
  two: { provider: bad, model: m2 }
`;
  const h = await startHarness({ scenario: { seed: 1, providers: { bad: { models: ['m1', 'm2'] } } }, configYaml: (fleet) => yaml(fleet, first.url) });
  const openBreakerOf = async (model: string) => {
    await assert.rejects(h.client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(h.gateway.breakers.state(`${model}@bad`), 'open');
    await h.gateway.notifier.settled();
  };
  const opened = (r: typeof first) => r.received.filter((n) => n.type === 'breaker_open').map((n) => n.route);
  try {
    h.fleet.setFaults('bad', { error503: 1 });
    await openBreakerOf('one');
    assert.deepEqual([opened(first), opened(second)], [['one@bad'], []]);

    const report = h.gateway.reload(() => parseConfig(yaml(h.fleet, second.url), 'test', {}), 'test');
    assert.deepEqual([report.ok, report.applied, report.restartNeeded], [true, ['notify'], []]);
    await openBreakerOf('two');
    assert.deepEqual([opened(first), opened(second)], [['one@bad'], ['two@bad']], 'the new webhook only');
  } finally {
    await h.close();
    await first.close();
    await second.close();
  }
});
