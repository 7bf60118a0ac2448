// Seed 000's language rule: an anomaly is confirmed twice at once and the majority of three
// decides; the first reply's drift is still remembered for the next round's retest.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideLanguage, isLanguageAnomaly, judgeProbe, needsConfirmation, probeRequest } from '../../src/canary/index.js';
import { ENFORCE, REPLIES, failed, ok, result } from './fixtures.js';

const request = probeRequest('language', { languages: ['pt'], language: 'pt' });
const drift = () => judgeProbe(request, ok(REPLIES.portugueseWithSpanish), ENFORCE);
const clean = () => judgeProbe(request, ok(REPLIES.portuguese), ENFORCE);
const short = () => judgeProbe(request, ok('Boa noite!'), ENFORCE);
const timeout = () => judgeProbe(request, failed('transport', null, 'upstream_timeout_total'), ENFORCE);

describe('language confirmation', () => {
  it('asks for confirmation of a failing language probe only, and only once', () => {
    assert.equal(needsConfirmation(drift()), true);
    assert.equal(needsConfirmation(clean()), false);
    assert.equal(needsConfirmation(short()), false);
    assert.equal(needsConfirmation(result('prefix', 'fail')), false);
    assert.equal(needsConfirmation(decideLanguage(drift(), [drift(), clean()])), false);
  });

  it('fail, fail, pass → fail, with the three verdicts as evidence', () => {
    const r = decideLanguage(drift(), [drift(), clean()]);
    assert.deepEqual([r.verdict, r.reason], ['fail', 'mixed_language']);
    assert.deepEqual(r.evidence.confirmations, ['fail', 'fail', 'pass']);
    assert.ok(r.evidence.languages);
  });

  it('fail, pass, pass → pass', () => {
    const r = decideLanguage(drift(), [clean(), clean()]);
    assert.equal(r.verdict, 'pass');
    assert.deepEqual(r.evidence.confirmations, ['fail', 'pass', 'pass']);
  });

  it('without a majority of passes it is inconclusive, never a pass or a fail', () => {
    assert.equal(decideLanguage(drift(), [short(), timeout()]).verdict, 'inconclusive');
    const split = decideLanguage(drift(), [clean(), timeout()]);
    assert.deepEqual([split.verdict, split.reason, split.evidence.confirmations], ['inconclusive', 'not_confirmed', ['fail', 'pass', 'transport']]);
  });

  it('a fail confirmed by a late confirmation still fails', () => {
    assert.equal(decideLanguage(drift(), [clean(), drift()]).verdict, 'fail');
  });

  it('remembers the anomaly even when outvoted, so the next round retests the language', () => {
    assert.equal(isLanguageAnomaly(decideLanguage(drift(), [clean(), clean()])), true);
    assert.equal(isLanguageAnomaly(decideLanguage(drift(), [drift(), clean()])), true);
    assert.equal(isLanguageAnomaly(clean()), false);
  });
});
