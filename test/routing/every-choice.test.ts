// A non-streamed answer with `n` > 1 is judged choice by choice: one broken sample among good
// ones fails the gate and falls back, and x-warden-fallback names the choice. The official
// openai client → gateway → simulated fleet, whose `lastChoicePrefix` fault damages the last
// choice alone.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fleet } from '../../src/sim/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { cleanFleet, HELLO, JSON_FORMAT, REPLY_SCHEMA, served, simFleetYaml, simScenario } from '../helpers/gated-fleet.js';
import { metricsText } from '../helpers/metrics.js';

const PROVIDERS = ['pa', 'pb', 'sa', 'sb'];
const SCENARIO = simScenario(11, PROVIDERS);

function config(fleet: Fleet): string {
  return simFleetYaml(fleet, PROVIDERS, `  gated:      { tier: degrade, models: [pa, pb], checks: [prefix, nonempty] }
  structured: { tier: degrade, models: [sa, sb], checks: [schema], schema: ${JSON.stringify(REPLY_SCHEMA)} }`);
}

describe('n > 1, not streamed: every choice passes the gate', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: config });
  });
  after(() => h.close());
  beforeEach(() => cleanFleet(h, PROVIDERS));

  async function ask(model: string, n: number, format?: typeof JSON_FORMAT) {
    const { data, response } = await h.client.chat.completions.create({ model, messages: HELLO, n, response_format: format }).withResponse();
    return { route: response.headers.get('x-warden-route'), fallback: response.headers.get('x-warden-fallback'), contents: data.choices.map((c) => c.message.content ?? '') };
  }

  test('a stray prefix on the last of three choices falls back, naming choice 2; the client gets the fallback’s three', async () => {
    h.fleet.setFaults('pa', { lastChoicePrefix: 1 });
    const answer = await ask('gated', 3);
    assert.equal(answer.route, 'pb@pb');
    assert.match(answer.fallback ?? '', /^quality:\w+ in choice 2 at pa@pa$/);
    assert.equal(answer.contents.length, 3);
    assert.deepEqual([served(h.fleet, 'pa'), served(h.fleet, 'pb')], [1, 1]);
    // The metrics keep the stable reason code: the choice is not a label value.
    const lines = (await metricsText(h.url)).split('\n').filter((l) => l.includes('role="gated"'));
    const failures = lines.filter((l) => l.startsWith('warden_quality_failures_total'));
    const fallbacks = lines.filter((l) => l.startsWith('warden_fallbacks_total'));
    assert.equal(failures.length, 1, lines.join('\n'));
    assert.equal(fallbacks.length, 1, lines.join('\n'));
    assert.match(fallbacks[0]!, /reason="quality:\w+"/);
    assert.doesNotMatch(failures[0]! + fallbacks[0]!, /choice/);
  });

  test('broken JSON in the second of two structured choices falls back, naming choice 1', async () => {
    h.fleet.setFaults('sa', { lastChoicePrefix: 1 });
    const answer = await ask('structured', 2, JSON_FORMAT);
    assert.equal(answer.route, 'sb@sb');
    assert.match(answer.fallback ?? '', /^quality:\w+ in choice 1 at sa@sa$/);
    for (const content of answer.contents) assert.deepEqual(Object.keys(JSON.parse(content) as object), ['reply']);
  });

  test('good choices pass on the first route; with n = 1 the fallback names no choice, as before', async () => {
    const good = await ask('gated', 3);
    assert.deepEqual([good.route, good.fallback, good.contents.length], ['pa@pa', null, 3]);
    h.fleet.setFaults('pa', { lastChoicePrefix: 1 });
    const one = await ask('gated', 1);
    assert.equal(one.route, 'pb@pb');
    assert.match(one.fallback ?? '', /^quality:\w+ at pa@pa$/);
  });
});
