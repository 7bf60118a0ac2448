// The language check scores with eld's n-gram data in its own single pass (for speed); this
// holds that scoring to eld's own detect() on real sentences, so an eld upgrade that changes
// its data or scheme shows up here, not as silent drift.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { eld } from 'eld/medium';
import { scoreText } from '../../src/quality/language/ngram-score.js';
import { loadCorpus } from '../../bench/quality-eval/corpus.js';

it('gives eld 2.1 medium\'s best language and score on corpus sentences', () => {
  const sentences = loadCorpus()
    .filter((c) => c.transform === 'good')
    .flatMap((c) => c.reply.text.split(/(?<=[.!?。！？])\s*|\n+/))
    .map((s) => s.replace(/^[-*#\s]+/, '').trim())
    .filter((s) => s.length >= 10 && Buffer.byteLength(s) < 340); // eld reads at most ~350 bytes
  assert.ok(sentences.length > 300);
  let agree = 0;
  for (const sentence of sentences) {
    const theirs = eld.detect(sentence);
    const ours = scoreText(sentence);
    const language = theirs.language === 'ms' ? 'id' : theirs.language;
    if (ours.ranked[0]?.language === language) agree++;
    const theirScore = theirs.getScores()[theirs.language] ?? 0;
    assert.ok(Math.abs(ours.of(language) - theirScore) < 1e-9, `${sentence}: ${ours.of(language)} vs ${theirScore}`);
  }
  assert.equal(agree, sentences.length);
});
