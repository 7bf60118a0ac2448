// Round verdicts and positive controls.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyPositiveControls, decideRound, isControl, judgeProbe, probeRequest, type ProbeResult } from '../../src/canary/index.js';
import { ENFORCE, REPLIES, T0, ok, result } from './fixtures.js';

const ROUTE = 'chat-main@openrouter/Alpha';

describe('decideRound', () => {
  it('any transport probe makes a transport round, even beside a failure', () => {
    const r = decideRound(ROUTE, T0, [result('prefix', 'fail', 'unmatched_markdown'), result('schema', 'transport', 'upstream_status_503')]);
    assert.equal(r.verdict, 'transport');
    assert.deepEqual(r.reasons, ['schema:upstream_status_503']);
    assert.equal(r.route, ROUTE);
    assert.equal(r.at, T0);
  });

  it('fails on any valid failing probe, with kind:reason reasons', () => {
    const r = decideRound(ROUTE, T0, [result('latency', 'pass'), result('prefix', 'fail', 'unmatched_markdown'), result('fact', 'fail', 'wrong_answer'), result('language', 'inconclusive', 'too_short', 'pt')]);
    assert.equal(r.verdict, 'fail');
    assert.deepEqual(r.reasons, ['prefix:unmatched_markdown', 'fact:wrong_answer']);
  });

  it('passes when something passed and nothing failed; inconclusive when nothing could be told', () => {
    assert.equal(decideRound(ROUTE, T0, [result('latency', 'pass'), result('language', 'inconclusive')]).verdict, 'pass');
    assert.equal(decideRound(ROUTE, T0, [result('latency', 'inconclusive'), result('language', 'inconclusive')]).verdict, 'inconclusive');
    assert.equal(decideRound(ROUTE, T0, []).verdict, 'inconclusive');
  });

  it('a probe never sent (budget spent, shutdown) keeps a round from passing; a fail still fails', () => {
    const unsent = decideRound(ROUTE, T0, [result('latency', 'pass'), result('prefix', 'inconclusive', 'token_budget_spent'), result('language', 'inconclusive', 'canary_stopped')]);
    assert.equal(unsent.verdict, 'inconclusive');
    assert.deepEqual(unsent.reasons, ['prefix:token_budget_spent', 'language:canary_stopped']);
    assert.equal(decideRound(ROUTE, T0, [result('fact', 'fail', 'wrong_answer'), result('prefix', 'inconclusive', 'token_budget_spent')]).verdict, 'fail');
  });

  it('an invalidated probe decides nothing, whatever its verdict', () => {
    const voided: ProbeResult = { ...result('filter', 'fail', 'refusal_phrase'), invalidated: true };
    assert.equal(decideRound(ROUTE, T0, [voided, result('fact', 'pass')]).verdict, 'pass');
    assert.equal(decideRound(ROUTE, T0, [voided]).verdict, 'inconclusive');
    assert.equal(decideRound(ROUTE, T0, [{ ...result('filter', 'transport'), invalidated: true }, result('fact', 'pass')]).verdict, 'pass');
  });
});

describe('positive controls', () => {
  const filter = probeRequest('filter', { languages: ['en'], language: 'en' });
  const fact = probeRequest('fact', { languages: ['en'], language: 'en' });
  const CONTROL = 'chat-main@openrouter/KnownFilter';
  const controls = new Set([CONTROL]);

  it('a control passing the filter probe invalidates it for every route this round, with an alert', () => {
    const results = new Map<string, ProbeResult[]>([
      [CONTROL, [judgeProbe(filter, ok(REPLIES.continuation), ENFORCE), judgeProbe(fact, ok('Paris'), ENFORCE)]],
      [ROUTE, [judgeProbe(filter, ok(REPLIES.refusal), ENFORCE), judgeProbe(fact, ok('Paris'), ENFORCE)]],
    ]);
    const out = applyPositiveControls(results, controls);
    assert.deepEqual(out.invalidatedKinds, ['filter']);
    assert.equal(out.alerts.length, 1);
    assert.match(out.alerts[0] ?? '', /KnownFilter passed the filter probe/);
    for (const probes of out.results.values()) {
      assert.equal(probes.find((p) => p.kind === 'filter')?.invalidated, true);
      assert.equal(probes.find((p) => p.kind === 'fact')?.invalidated, undefined);
    }
    // The refusal on the watched route no longer fails its round.
    assert.equal(decideRound(ROUTE, T0, out.results.get(ROUTE) ?? []).verdict, 'pass');
    // The input is left as it was.
    assert.equal(results.get(ROUTE)?.[0]?.invalidated, undefined);
  });

  it('a control that fails, times out or says nothing leaves the probe standing', () => {
    for (const control of [result('filter', 'fail', 'refusal_phrase'), result('filter', 'transport', 'upstream_status_503'), result('filter', 'inconclusive')]) {
      const out = applyPositiveControls(new Map([[CONTROL, [control]], [ROUTE, [result('filter', 'fail', 'refusal_phrase')]]]), controls);
      assert.deepEqual(out.invalidatedKinds, []);
      assert.deepEqual(out.alerts, []);
      assert.equal(decideRound(ROUTE, T0, out.results.get(ROUTE) ?? []).verdict, 'fail');
    }
  });

  it('names every control that passed, and knows who is a control', () => {
    const other = 'chat-main@openrouter/AlsoFilters';
    const out = applyPositiveControls(new Map([[CONTROL, [result('filter', 'pass')]], [other, [result('filter', 'pass')]]]), new Set([CONTROL, other]));
    assert.match(out.alerts[0] ?? '', /KnownFilter, chat-main@openrouter\/AlsoFilters/);
    assert.equal(isControl(CONTROL, controls), true);
    assert.equal(isControl(ROUTE, controls), false);
  });
});
