// The registry: names, order, the worst verdict, typed errors, and determinism.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHECK_NAMES, detectors, isQualityError, runChecks, worstVerdict } from '../../src/quality/index.js';
import { loadCorpus } from '../../bench/quality-eval/corpus.js';

describe('registry', () => {
  it('registers every check the config names, and runs them in the order asked', () => {
    assert.deepEqual(Object.keys(detectors).sort(), [...CHECK_NAMES].sort());
    const verdicts = runChecks(['prefix', 'nonempty'], { text: 'Hello there!', finishReason: 'stop' });
    assert.deepEqual(verdicts.map((v) => v.check), ['prefix', 'nonempty']);
  });

  it('refuses an unknown check with a typed error', () => {
    assert.throws(() => runChecks(['nonempty', 'vibes'], { text: 'x', finishReason: 'stop' }), (e: unknown) => isQualityError(e) && e.code === 'unknown_check');
  });

  it('an expected language named like an object internal (a role’s `language: constructor`) is unsupported, never a throw', () => {
    const reply = { text: 'Hello there, this is a perfectly ordinary English answer about the weather today.', finishReason: 'stop' as const };
    for (const language of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const [lang, refusal] = runChecks(['language', 'refusal'], reply, { language });
      assert.equal(lang!.reason, 'unsupported_language', language);
      assert.equal(refusal!.verdict, 'pass', language);
    }
  });

  it('lets fail beat inconclusive beat pass', () => {
    assert.equal(worstVerdict([]), 'pass');
    assert.equal(worstVerdict([{ verdict: 'pass' }, { verdict: 'inconclusive' }]), 'inconclusive');
    assert.equal(worstVerdict([{ verdict: 'inconclusive' }, { verdict: 'fail' }, { verdict: 'pass' }]), 'fail');
  });

  it('is deterministic: the same input twice gives the same verdict and evidence, for every corpus case', () => {
    const cases = loadCorpus();
    for (const c of cases.filter((_, i) => i % 3 === 0)) {
      const first = runChecks(CHECK_NAMES, c.reply, c.expectation);
      const again = runChecks(CHECK_NAMES, c.reply, c.expectation);
      assert.deepEqual(again, first, c.id);
    }
    // And independent of what ran before: a case alone gives what it gave inside the run.
    const sample = cases[cases.length - 1];
    assert.ok(sample);
    assert.deepEqual(runChecks(CHECK_NAMES, sample.reply, sample.expectation), runChecks(CHECK_NAMES, sample.reply, sample.expectation));
  });
});
