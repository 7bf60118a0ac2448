// A gated role without a hold-back window commits a stream on its first token. When the read
// that brings the first token already holds the answer's end (a short answer in one chunk),
// the whole gate judges it before anything is written, and a bad one falls back with the
// client seeing only the fallback's stream. An answer still under way goes out at its first
// token, unjudged until its end. The official openai client → gateway → simulated fleet (its
// default pace sends a reply's pieces, finish and [DONE] in one write; `holdStreams` holds a
// stream after its first piece), and a wire script that thinks and answers in one write.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fleet } from '../../src/sim/index.js';
import { cleanFleet, HELLO, JSON_FORMAT, REPLY_SCHEMA, served, simFleetYaml, simScenario, streamToEnd } from '../helpers/gated-fleet.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { sseChunk, startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-upstream.js';

const PROVIDERS = ['pa', 'pb', 'sa', 'sb', 'la', 'lb', 'rb'];
const SPECS: Record<string, object> = { la: { holdStreams: true, replyTokens: 40 }, rb: { reasoning: true } };
const SCENARIO = simScenario(3, PROVIDERS, SPECS);

function config(fleet: Fleet, scripted: ScriptedUpstream): string {
  return simFleetYaml(fleet, PROVIDERS, `  plain:      { tier: degrade, models: [pa, pb], checks: [prefix, nonempty] }
  structured: { tier: degrade, models: [sa, sb], checks: [schema], schema: ${JSON.stringify(REPLY_SCHEMA)} }
  long:       { tier: degrade, models: [la, lb], checks: [prefix, nonempty] }
  thinking:   { tier: degrade, models: [quick, rb], thinking: on, checks: [prefix, nonempty] }`, { providers: `  scripted: { kind: openai-compatible, baseUrl: "${scripted.baseUrl}" }`, models: '  quick: { provider: scripted, model: quick }' });
}

describe('no hold-back window: an answer whole in the first read is judged before it goes out', () => {
  let h: Harness;
  let scripted: ScriptedUpstream;
  before(async () => {
    // Thinks and answers, with a stray start, in one write: reasoning is the first token, and the end came with it.
    scripted = await startScriptedUpstream({
      quick: async (write) =>
        write(sseChunk({ role: 'assistant', content: '', reasoning_content: 'A greeting; answer it.' }) + sseChunk({ content: '<|im_start|>Hello! I am well, thank you.' }) + sseChunk({}, 'stop') + 'data: [DONE]\n\n'),
    });
    h = await startHarness({ scenario: SCENARIO, configYaml: (fleet) => config(fleet, scripted) });
  });
  after(async () => {
    await h.close();
    await scripted.close();
  });
  beforeEach(() => cleanFleet(h, PROVIDERS));
  const stream = (model: string, format?: typeof JSON_FORMAT) => streamToEnd(h, model, format);

  test('a stray prefix falls back, and the client sees only the fallback’s answer', async () => {
    h.fleet.setFaults('pa', { prefix: 1 });
    const whole = await h.client.chat.completions.create({ model: 'plain', messages: HELLO }).withResponse();
    const streamed = await stream('plain');
    assert.equal(streamed.route, 'pb@pb');
    assert.equal(streamed.fallback, whole.response.headers.get('x-warden-fallback'));
    assert.match(streamed.fallback ?? '', /^quality:\w+ at pa@pa$/);
    assert.equal(streamed.text, whole.data.choices[0]!.message.content);
    assert.equal(streamed.finish, 'stop');
    assert.deepEqual([served(h.fleet, 'pa'), served(h.fleet, 'pb')], [2, 2]);
  });

  // A structured role's stream is re-encoded (thinking forced off), which reads the whole read anyway.
  test('an empty answer and broken JSON (a structured role) fall back likewise', async () => {
    h.fleet.setFaults('pa', { empty: 1 });
    const empty = await stream('plain');
    assert.deepEqual([empty.route, empty.fallback, empty.finish], ['pb@pb', 'quality:empty at pa@pa', 'stop']);
    assert.ok(empty.text.length > 0);
    h.fleet.setFaults('sa', { brokenJson: 1 });
    const broken = await stream('structured', JSON_FORMAT);
    assert.equal(broken.route, 'sb@sb');
    assert.match(broken.fallback ?? '', /^quality:\w+ at sa@sa$/);
    assert.deepEqual(Object.keys(JSON.parse(broken.text) as object), ['reply']);
  });

  test('reasoning as the first token: the whole answer that came with it is judged first, and a stray prefix falls back', async () => {
    const { data, response } = await h.client.chat.completions.create({ model: 'thinking', messages: HELLO, stream: true }).withResponse();
    let reasoning = '';
    let text = '';
    for await (const chunk of data) {
      const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      text += delta?.content ?? '';
    }
    assert.equal(response.headers.get('x-warden-route'), 'rb@rb');
    assert.match(response.headers.get('x-warden-fallback') ?? '', /^quality:\w+ at quick@scripted$/);
    assert.ok(reasoning.length > 0, 'the fallback’s reasoning reaches the client');
    const whole = await h.client.chat.completions.create({ model: 'rb', messages: HELLO });
    assert.equal(text, whole.choices[0]!.message.content);
  });

  // The timeout only keeps a regression (a relay waiting for the end) from hanging the suite.
  test('a good answer still under way streams from its first token: the client has it while the upstream holds the rest', { timeout: 30_000 }, async () => {
    const whole = await h.client.chat.completions.create({ model: 'long', messages: HELLO });
    const expected = whole.choices[0]!.message.content!;
    h.fleet.reset();
    const { data, response } = await h.client.chat.completions.create({ model: 'long', messages: HELLO, stream: true }).withResponse();
    assert.equal(response.headers.get('x-warden-route'), 'la@la');
    const chunks = data[Symbol.asyncIterator]();
    // Up to the first piece of content: the upstream sends nothing more until it is released.
    const before: Array<{ content: string; finish: string | null }> = [];
    while (!before.some((c) => c.content !== '')) {
      const next = await chunks.next();
      assert.ok(!next.done, 'the stream ended before its first token');
      const choice = next.value.choices[0];
      before.push({ content: choice?.delta?.content ?? '', finish: choice?.finish_reason ?? null });
    }
    assert.ok(before.every((c) => c.finish === null), 'no finish before the release');
    assert.equal(h.fleet.stats().openStreams, 1);
    assert.equal(h.fleet.releaseStreams('la'), 1);
    let text = before.map((c) => c.content).join('');
    let finish: string | null = null;
    let after = 0;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      const choice = next.value.choices[0];
      text += choice?.delta?.content ?? '';
      finish = choice?.finish_reason ?? finish;
      after++;
    }
    assert.ok(after > 1, 'the rest came after the release');
    assert.equal(text, expected);
    assert.equal(finish, 'stop');
    assert.equal(served(h.fleet, 'lb'), 0);
  });
});
