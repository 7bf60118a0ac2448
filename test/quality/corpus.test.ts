// The corpus evaluation in the test suite: the build fails when a target falls below it.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loadCorpus } from '../../bench/quality-eval/corpus.js';
import { evaluate } from '../../bench/quality-eval/evaluate.js';
import { missedTargets } from '../../bench/quality-eval/targets.js';

it('meets every target on the labelled corpus (precision ≥ 0.99, recall ≥ 0.95, pt/es and zh/ja mixing)', () => {
  const cases = loadCorpus();
  assert.ok(cases.length >= 600, `only ${cases.length} cases`);
  for (const language of ['en', 'zh', 'ja', 'ko', 'es', 'pt', 'fr', 'de', 'it', 'ru', 'ar', 'hi', 'id', 'vi', 'th', 'tr', 'pl']) {
    assert.ok(cases.some((c) => c.language === language && c.transform === 'good'), `no good replies in ${language}`);
  }
  const report = evaluate(cases);
  assert.deepEqual(missedTargets(report), []);
});
