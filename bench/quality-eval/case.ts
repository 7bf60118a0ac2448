// One labelled case of the quality corpus (test/fixtures/quality/*.jsonl), as the generator
// writes it and the evaluation reads it.
import type { CheckName, Expectation, Reply, VerdictKind } from '../../src/quality/index.js';

export interface CorpusCase {
  id: string;
  /** The verdict each labelled check should give; checks not listed are not judged on this case. */
  labels: Partial<Record<CheckName, VerdictKind>>;
  reply: Reply;
  expectation: Expectation;
  /** What made the case: `good`, `splice:es`, `mojibake`, `prefix:template`, `hand:refusal`, … */
  transform: string;
  /** The language the reply is meant to be in. */
  language: string;
  /** `tune` cases set the thresholds; `holdout` cases report them (odd and even UDHR articles). */
  split: 'tune' | 'holdout';
  /** Measurements the evaluation slices by: characters, share of foreign text, mixed pair. */
  meta?: { chars?: number; foreignShare?: number; pair?: string };
}
