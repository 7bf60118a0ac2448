// A stream read to its end before the commit (it fit in the hold-back window, or its first
// token was its end) is judged by the whole gate, and a failure falls back as a non-streamed
// answer would: the official openai client → gateway → simulated fleet.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fleet } from '../../src/sim/index.js';
import { cleanFleet, HELLO, JSON_FORMAT, REPLY_SCHEMA, served, simFleetYaml, simScenario, streamToEnd } from '../helpers/gated-fleet.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const PROVIDERS = ['ha', 'hb', 'ja', 'jb', 'ma', 'mb', 'ga', 'gb'];
const SCENARIO = simScenario(7, PROVIDERS);

// The window's ms is long: the answers end well inside it, and no test waits on it.
function config(fleet: Fleet): string {
  return simFleetYaml(fleet, PROVIDERS, `  held:       { tier: degrade, models: [ha, hb], checks: [nonempty, refusal], holdBack: { chars: 120, ms: 30s } }
  structured: { tier: degrade, models: [ja, jb], checks: [schema], schema: ${JSON.stringify(REPLY_SCHEMA)}, holdBack: { chars: 120, ms: 30s } }
  sized:      { tier: degrade, models: [ma, mb], checks: [minlen], minLength: 20, holdBack: { chars: 120, ms: 30s } }
  gated:      { tier: degrade, models: [ga, gb], checks: [nonempty] }`);
}


describe('hold-back: an answer read whole before the commit', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: config });
  });
  after(() => h.close());
  beforeEach(() => cleanFleet(h, PROVIDERS));

  /** Streams a request; the headers and what the client assembled. */
  const stream = (model: string, format?: typeof JSON_FORMAT) => streamToEnd(h, model, format);

  test('a filtered answer that ends inside the window falls back like the non-streamed one, and the client sees only the fallback', async () => {
    h.fleet.setFaults('ha', { contentFilter: 1 });
    const whole = await h.client.chat.completions.create({ model: 'held', messages: HELLO }).withResponse();
    assert.equal(whole.response.headers.get('x-warden-route'), 'hb@hb');
    const streamed = await stream('held');
    assert.equal(streamed.route, 'hb@hb');
    assert.equal(streamed.fallback, whole.response.headers.get('x-warden-fallback'));
    const reason = /^quality:(\w+) at ha@ha$/.exec(streamed.fallback ?? '')?.[1];
    assert.ok(reason === 'empty' || reason === 'content_filter', streamed.fallback ?? 'no fallback');
    assert.equal(streamed.text, whole.data.choices[0]!.message.content);
    assert.equal(streamed.finish, 'stop');
    assert.equal([served(h.fleet, 'ha'), served(h.fleet, 'hb')].join(), '2,2');
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    const failures = metrics.split('\n').filter((l) => l.startsWith('warden_quality_failures_total') && l.includes(`"${reason}"`));
    assert.equal(failures.length, 1, metrics);
    assert.match(failures[0]!, / 2$/, 'one failure per request, counted once');
  });

  test('an empty answer fails the whole gate inside the window, though it has no text for the start checks', async () => {
    h.fleet.setFaults('ha', { empty: 1 });
    const streamed = await stream('held');
    assert.deepEqual([streamed.route, streamed.fallback, streamed.finish], ['hb@hb', 'quality:empty at ha@ha', 'stop']);
    assert.ok(streamed.text.length > 0);
  });

  test('a role whose checks are all end-only (schema) judges a whole answer held back: broken JSON and a stray prefix fall back', async () => {
    for (const fault of ['brokenJson', 'prefix']) {
      h.fleet.reset();
      h.fleet.setFaults('ja', { [fault]: 1 });
      const streamed = await stream('structured', JSON_FORMAT);
      assert.equal(streamed.route, 'jb@jb', fault);
      assert.match(streamed.fallback ?? '', /^quality:\w+ at ja@ja$/, fault);
      assert.deepEqual(Object.keys(JSON.parse(streamed.text) as object), ['reply'], fault);
      assert.equal(served(h.fleet, 'ja'), 1, fault);
    }
  });

  test('minlen alone: an empty answer inside the window falls back', async () => {
    h.fleet.setFaults('ma', { empty: 1 });
    const streamed = await stream('sized');
    assert.deepEqual([streamed.route, streamed.fallback], ['mb@mb', 'quality:too_short at ma@ma']);
    assert.ok(streamed.text.length >= 20);
  });

  test('without a hold-back window, an answer whose first event is already its end is judged whole before it goes out', async () => {
    h.fleet.setFaults('ga', { empty: 1 });
    const streamed = await stream('gated');
    assert.deepEqual([streamed.route, streamed.fallback, streamed.finish], ['gb@gb', 'quality:empty at ga@ga', 'stop']);
  });
});
