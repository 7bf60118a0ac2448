// Warden failing while it answers — a write to the client that throws, its own code — is never
// the upstream route's fault: no breaker failure, no route health, no fallback. The client gets
// a 500 `internal_error` (an SSE error event once its stream is under way) and the attempt counts
// as `internal`. A client that goes away is not the route's fault either.
// The provocation: an OpenRouter answer naming its endpoint outside ASCII, which makes the
// x-warden-route header of the answer invalid, so writing the answer's head throws — at the
// first token, when a held-back answer's finish is read, when the upstream's end is read, or
// when the hold-back window's time is up.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { abortStreamAfterFirstChunk, startHarness, type Harness } from '../helpers/harness.js';
import { sseChunk, startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-upstream.js';

const HELLO = [{ role: 'user' as const, content: 'Hello there' }];
const NAMED = { provider: '\u667a\u8c31' };
const ANSWER = sseChunk({ role: 'assistant', content: '' }, null, NAMED) + sseChunk({ content: 'Hello' }, null, NAMED);
const DONE = sseChunk({}, 'stop', NAMED) + 'data: [DONE]\n\n';

const metrics = async (url: string) => (await fetch(`${url}/metrics`)).text();
const count = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)`, 'm').exec(text)?.[1] ?? 0);

describe('Warden failing while it answers', () => {
  let upstream: ScriptedUpstream;
  let h: Harness;
  before(async () => {
    upstream = await startScriptedUpstream({
      named: async (write) => write(ANSWER + DONE),
      // No finish reason: a held answer is committed only when the upstream's end is read.
      'named-unfinished': async (write) => write(ANSWER + 'data: [DONE]\n\n'),
      // Still under way when the hold-back window's time is up.
      'named-slow': async (write, step) => {
        write(ANSWER);
        await step();
        write(DONE);
      },
    });
    h = await startHarness({
      configYaml: (fleet) => `
breaker: { failures: 2, minCalls: 1000 }
providers:
  or: { kind: openrouter, baseUrl: "${upstream.baseUrl}" }
  slowdirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Slow')}" }
models:
  named: { provider: or, model: named, routes: [Alpha] }
  named-slow: { provider: or, model: named-slow, routes: [Alpha] }
  named-unfinished: { provider: or, model: named-unfinished, routes: [Alpha] }
  slow: { provider: slowdirect, model: slow/model }
roles:
  held: { tier: degrade, models: [named], holdBack: { chars: 2000, ms: 30s } }
  timed: { tier: degrade, models: [named-slow], holdBack: { chars: 2000, ms: 20ms } }
  ended: { tier: degrade, models: [named-unfinished], holdBack: { chars: 2000, ms: 30s } }
`,
    });
  });
  after(async () => {
    await h.close();
    await upstream.close();
  });

  // Three times each: with a breaker opening after two failures, a blamed route would be open.
  for (const [model, label, route] of [
    ['named', '-', 'named@or/\u667a\u8c31'],
    ['held', 'held', 'named@or/\u667a\u8c31'],
    ['timed', 'timed', 'named-slow@or/\u667a\u8c31'],
    ['ended', 'ended', 'named-unfinished@or/\u667a\u8c31'],
  ] as const) {
    test(`${model}: the client gets a 500 internal_error, the route is not blamed`, { timeout: 15_000 }, async () => {
      const internal = `warden_upstream_attempts_total{route="${route}",error_class="internal"}`;
      const internalBefore = count(await metrics(h.url), internal);
      for (let i = 0; i < 3; i++) {
        await assert.rejects(h.client.chat.completions.create({ model, messages: HELLO, stream: true }), (e: unknown) => {
          assert.ok(e instanceof OpenAI.APIError, `an APIError, not ${String(e)}`);
          assert.deepEqual([e.status, e.code], [500, 'internal_error']);
          assert.doesNotMatch(e.message, /x-warden-route|upstream/, 'what failed inside stays in the log');
          return true;
        });
        upstream.go();
      }
      for (const id of [route, route.replace('\u667a\u8c31', 'Alpha')]) {
        assert.equal(h.gateway.breakers.snapshot(id)?.consecutiveFailures ?? 0, 0, `no breaker failure for ${id}`);
        assert.equal(h.gateway.breakers.state(id), 'closed');
      }
      const m = await metrics(h.url);
      assert.equal(count(m, internal), internalBefore + 3, m);
      assert.equal(count(m, `warden_upstream_attempts_total{route="${route}",error_class="reset"}`), 0);
      assert.equal(count(m, `warden_requests_total{role="${label}",route="${route}",outcome="internal_error"}`), 3);
    });
  }

  test('a client that aborts its stream is not the route\u2019s fault either', async () => {
    for (let i = 0; i < 3; i++) await abortStreamAfterFirstChunk(h, 'slow');
    assert.equal(h.gateway.breakers.snapshot('slow@slowdirect')?.consecutiveFailures ?? 0, 0);
    assert.equal(h.gateway.breakers.state('slow@slowdirect'), 'closed');
    const m = await metrics(h.url);
    assert.equal(count(m, 'warden_upstream_attempts_total{route="slow@slowdirect",error_class="aborted"}'), 3);
    assert.equal(count(m, 'warden_requests_total{role="-",route="slow@slowdirect",outcome="client_aborted"}'), 3);
  });
});
