// A streamed answer with `n` > 1 is judged choice by choice, as a non-streamed one is: one
// broken sample among good ones fails the gate before the commit and falls back, x-warden-fallback
// naming the choice; after the commit the failure is recorded. The official openai client →
// gateway → simulated fleet, which interleaves the choices one per event and whose
// `lastChoicePrefix` fault damages the last choice alone.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fleet } from '../../src/sim/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { cleanFleet, HELLO, served, simFleetYaml, simScenario, streamToEnd } from '../helpers/gated-fleet.js';
import { metricsText } from '../helpers/metrics.js';

const PROVIDERS = ['pa', 'pb', 'wa', 'wb', 'la', 'lb', 'na', 'nb'];
// wa paces its pieces, so a window fills before the end; la holds its stream after the first
// piece; na answers one choice whatever `n` asks, and holds its stream after the first piece.
const SPECS: Record<string, object> = {
  wa: { tokensPerSecond: 400, replyTokens: 60 },
  la: { holdStreams: true, replyTokens: 40 },
  na: { ignoresN: true, holdStreams: true, replyTokens: 40 },
};
const SCENARIO = simScenario(11, PROVIDERS, SPECS);

function config(fleet: Fleet): string {
  return simFleetYaml(fleet, PROVIDERS, `  gated: { tier: degrade, models: [pa, pb], checks: [prefix, nonempty] }
  held:  { tier: degrade, models: [wa, wb], checks: [prefix, nonempty], holdBack: { chars: 24, ms: 30s } }
  late:  { tier: degrade, models: [la, lb], checks: [prefix, nonempty] }
  single: { tier: degrade, models: [na, nb], checks: [prefix, nonempty], holdBack: { chars: 1, ms: 10m } }`);
}

describe('n > 1, streamed: every choice passes the gate', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: config });
  });
  after(() => h.close());
  beforeEach(() => cleanFleet(h, PROVIDERS));

  /** warden_quality_failures_total of the role, every series summed. */
  async function qualityFailures(role: string): Promise<number> {
    const lines = (await metricsText(h.url)).split('\n').filter((l) => l.startsWith(`warden_quality_failures_total{role="${role}"`));
    return lines.reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
  }

  /** The non-streamed answer's choices and headers, for the same request. */
  async function whole(model: string, n: number) {
    const { data, response } = await h.client.chat.completions.create({ model, messages: HELLO, n }).withResponse();
    return { fallback: response.headers.get('x-warden-fallback'), contents: data.choices.map((c) => c.message.content ?? '') };
  }

  for (const role of ['gated', 'held']) {
    const [first, second] = role === 'gated' ? ['pa', 'pb'] : ['wa', 'wb'];
    test(`${role}: a stray prefix on the last of two choices falls back before the commit, naming choice 1; the client gets the fallback’s two, clean`, async () => {
      h.fleet.setFaults(first!, { lastChoicePrefix: 1 });
      const expected = await whole(role, 2);
      h.fleet.reset();
      const streamed = await streamToEnd(h, role, undefined, 2);
      assert.equal(streamed.route, `${second}@${second}`);
      assert.match(streamed.fallback ?? '', new RegExp(`^quality:\\w+ in choice 1 at ${first}@${first}$`));
      assert.equal(streamed.fallback, expected.fallback, 'the wording of a non-streamed answer');
      assert.deepEqual(streamed.texts, expected.contents);
      assert.deepEqual(streamed.finishes, ['stop', 'stop']);
      assert.deepEqual([served(h.fleet, first!), served(h.fleet, second!)], [1, 1]);
      // The metrics keep the stable reason code: the choice is not a label value.
      const lines = (await metricsText(h.url)).split('\n').filter((l) => l.includes(`role="${role}"`));
      const fallbacks = lines.filter((l) => l.startsWith('warden_fallbacks_total'));
      assert.equal(fallbacks.length, 1, lines.join('\n'));
      assert.match(fallbacks[0]!, /reason="quality:\w+"/);
      assert.doesNotMatch(lines.join('\n'), /choice/);
    });

    test(`${role}: two healthy choices pass on the first route, each the non-streamed choice’s text`, async () => {
      const expected = await whole(role, 2);
      const failures = await qualityFailures(role);
      const streamed = await streamToEnd(h, role, undefined, 2);
      assert.deepEqual([streamed.route, streamed.fallback], [`${first}@${first}`, null]);
      assert.equal(new Set(expected.contents).size, 2, 'the choices differ');
      assert.deepEqual(streamed.texts, expected.contents);
      assert.deepEqual(streamed.finishes, ['stop', 'stop']);
      assert.equal(await qualityFailures(role), failures, 'no check failed');
    });
  }

  // The timeout only keeps a regression (a relay waiting for the end) from hanging the suite.
  test('after the commit, a stray prefix on the last choice is recorded, not switched: the client has both choices as sent', { timeout: 30_000 }, async () => {
    h.fleet.setFaults('la', { lastChoicePrefix: 1 });
    const expected = await whole('la', 2);
    h.fleet.reset();
    const { data, response } = await h.client.chat.completions.create({ model: 'late', messages: HELLO, stream: true, n: 2 }).withResponse();
    assert.deepEqual([response.headers.get('x-warden-route'), response.headers.get('x-warden-fallback')], ['la@la', null]);
    const texts = ['', ''];
    const chunks = data[Symbol.asyncIterator]();
    // Up to the first piece of content: committed on it, while the upstream holds the rest.
    while (texts.every((t) => t === '')) {
      const next = await chunks.next();
      assert.ok(!next.done, 'the stream ended before its first token');
      for (const c of next.value.choices) texts[c.index] += c.delta.content ?? '';
    }
    assert.equal(h.fleet.releaseStreams('la'), 1);
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      for (const c of next.value.choices) texts[c.index] += c.delta.content ?? '';
    }
    assert.deepEqual(texts, expected.contents);
    assert.equal(served(h.fleet, 'lb'), 0);
    await h.fleet.waitFor((s) => s.openStreams === 0);
    const failures = (await metricsText(h.url)).split('\n').filter((l) => l.startsWith('warden_quality_failures_total{role="late"'));
    assert.equal(failures.length, 1, failures.join('\n'));
    assert.doesNotMatch(failures[0]!, /choice/);
  });

  test('an upstream that ignores n answers one choice: the window opens on it, not after its whole ms waiting for choice 1', { timeout: 30_000 }, async () => {
    const expected = await whole('na', 2);
    assert.equal(expected.contents.length, 1, 'the provider answers one choice');
    h.fleet.reset();
    // The window is 10 minutes: headers and the first piece come only if it opened on choice 0 alone.
    const { data, response } = await h.client.chat.completions.create({ model: 'single', messages: HELLO, stream: true, n: 2 }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'na@na');
    const chunks = data[Symbol.asyncIterator]();
    let text = '';
    while (text === '') {
      const next = await chunks.next();
      assert.ok(!next.done, 'the stream ended before its first token');
      for (const c of next.value.choices) text += c.delta.content ?? '';
    }
    // Committed while the upstream still holds the rest of its answer.
    assert.equal(h.fleet.releaseStreams('na'), 1);
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      for (const c of next.value.choices) {
        assert.equal(c.index, 0);
        text += c.delta.content ?? '';
      }
    }
    assert.equal(text, expected.contents[0]);
    await h.fleet.waitFor((s) => s.openStreams === 0);
  });

  test('n = 1 streams as before: a stray prefix falls back naming no choice', async () => {
    h.fleet.setFaults('pa', { prefix: 1 });
    const streamed = await streamToEnd(h, 'gated');
    assert.equal(streamed.route, 'pb@pb');
    assert.match(streamed.fallback ?? '', /^quality:\w+ at pa@pa$/);
    assert.deepEqual(streamed.texts, (await whole('gated', 1)).contents);
  });
});
