// Upstream timeouts reload like breaker settings: the top-level `timeouts`, a provider's and a
// model's apply to the next request without a restart. undici fixes a pool's connect timeout
// when it is made, so a changed one gets the model a new pool; the old one closes only after
// the requests it carries have ended.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { parseConfig } from '../../src/config/index.js';
import type { Fleet } from '../../src/sim/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const HELLO = [{ role: 'user' as const, content: 'Hello there' }];
const SCENARIO = {
  seed: 21,
  providers: {
    // Headers at once, the first token only after a minute.
    Late: { models: ['late/model'], firstTokenMs: 60_000 },
    // Each stream sends its first chunk, then waits for fleet.releaseStreams('Held').
    Held: { models: ['held/model'], replyTokens: 30, holdStreams: true },
  },
};

/** The test's config, with `late`'s and `held`'s timeouts as given. */
const configYaml = (fleet: Fleet, timeouts: { late: string; held: string }) => `
providers:
  latep: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Late')}" }
  heldp: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Held')}" }
models:
  late: { provider: latep, model: late/model, timeouts: ${timeouts.late} }
  held: { provider: heldp, model: held/model, timeouts: ${timeouts.held} }
`;
const START = { late: '{ firstToken: 10m, total: 10m }', held: '{ connect: 5s }' };

describe('config hot reload: upstream timeouts', () => {
  let h: Harness;
  /** The timeouts the file says now: each reload changes only what its test names. */
  let running = START;
  const reload = (changes: Partial<typeof START>) => {
    running = { ...running, ...changes };
    return h.gateway.reload(() => parseConfig(configYaml(h.fleet, running), 'reloaded', {}), 'test');
  };

  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: (fleet) => configYaml(fleet, START) });
  });
  after(() => h.close());

  test('a lower first-token timeout applies to the next stream', async () => {
    const report = reload({ late: '{ firstToken: 200ms, total: 10m }' });
    assert.deepEqual([report.ok, report.applied, report.restartNeeded], [true, ['models.late.timeouts'], []]);
    assert.equal(h.gateway.config.models.late!.timeouts.firstToken, 200);
    // Under the running 10 minutes this stream would wait out the provider's minute and succeed.
    await assert.rejects(h.client.chat.completions.create({ model: 'late', messages: HELLO, stream: true }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.APIError);
      assert.equal(e.status, 504);
      assert.equal(e.code, 'upstream_timeout_first_token');
      return true;
    });
    await h.fleet.waitFor((s) => s.openRequests === 0);
  });

  test('a changed connect timeout gives the model a new pool; a stream in flight on the old one ends normally', async () => {
    const stream = await h.client.chat.completions.create({ model: 'held', messages: HELLO, stream: true });
    const chunks = stream[Symbol.asyncIterator]();
    const first = await chunks.next();
    assert.ok(!first.done);
    const model = h.gateway.catalog.get('held')!;
    const oldPool = model.dispatcher as unknown as { closed: boolean; destroyed: boolean };
    assert.ok(oldPool);

    // The fleet serves both providers on one origin, so both models share the pool: it retires
    // once neither connects with the old value.
    const report = reload({ late: '{ firstToken: 200ms, total: 10m, connect: 3s }', held: '{ connect: 3s }' });
    assert.deepEqual([report.ok, report.applied, report.restartNeeded], [true, ['models.late.timeouts', 'models.held.timeouts'], []]);
    assert.equal(model.timeouts.connect, 3_000);
    assert.equal(oldPool.closed, true, 'the old pool takes no new request');
    assert.equal(oldPool.destroyed, false, 'and is not torn down under its stream');

    // A new request gets the new pool while the old stream is still open.
    const second = await h.client.chat.completions.create({ model: 'held', messages: HELLO });
    assert.ok(second.choices[0]!.message.content);
    assert.notEqual(model.dispatcher, oldPool);

    assert.equal(h.fleet.releaseStreams('Held'), 1);
    let finish: string | null = null;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) finish = next.value.choices[0]?.finish_reason ?? finish;
    assert.equal(finish, 'stop', 'the stream on the retired pool ran to its end');
  });

  test('the top-level and a provider\u2019s timeouts reload too; other provider changes still wait for a restart', async () => {
    const text = configYaml(h.fleet, running)
      .replace('heldp: { kind: openai-compatible,', 'heldp: { kind: openai-compatible, connections: 8, timeouts: { firstByte: 7s },')
      .replace('providers:', 'timeouts: { total: 90s }\nproviders:');
    const report = h.gateway.reload(() => parseConfig(text, 'reloaded', {}), 'test');
    assert.deepEqual([report.ok, report.applied, report.restartNeeded], [true, ['timeouts', 'providers.heldp.timeouts'], ['providers']]);
    const held = h.gateway.catalog.get('held')!.timeouts;
    assert.deepEqual([held.firstByte, held.total, held.connect], [7_000, 90_000, 3_000]);
    assert.equal(h.gateway.config.providers.heldp!.connections, 128, 'the connection cap keeps its running value');
  });
});
