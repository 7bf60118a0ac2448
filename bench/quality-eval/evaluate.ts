// Runs every labelled check on every case and counts: precision of `fail` (a false failure
// is what would quarantine a healthy route), recall on seeded faults, the inconclusive share.
import { detectors, type CheckName, type Verdict, type VerdictKind } from '../../src/quality/index.js';
import type { CorpusCase } from './case.js';

export interface CheckMetrics {
  cases: number;
  faults: number;
  caught: number;
  falseFails: number;
  precision: number;
  recall: number;
  inconclusive: number;
  inconclusiveShare: number;
}

export interface Miss {
  id: string;
  check: CheckName;
  expected: VerdictKind;
  got: VerdictKind;
  reason: string;
  split: CorpusCase['split'];
}

export interface SliceMetrics {
  cases: number;
  caught: number;
  recall: number;
}

export interface SplitReport {
  checks: Partial<Record<CheckName, CheckMetrics>>;
  /** Mixing recall on paragraphs of 300 characters or more, by language pair. */
  mixing: Record<string, SliceMetrics>;
}

export interface EvaluationReport {
  corpus: { cases: number; labels: number; tune: number; holdout: number };
  all: SplitReport;
  tune: SplitReport;
  holdout: SplitReport;
  misses: Miss[];
}

interface Outcome {
  c: CorpusCase;
  check: CheckName;
  expected: VerdictKind;
  verdict: Verdict;
}

const MIXING_PAIRS: Readonly<Record<string, readonly string[]>> = { 'pt/es': ['pt/es', 'es/pt'], 'zh/ja': ['zh/ja', 'ja/zh'] };
export const MIXING_MIN_CHARS = 300;

export function evaluate(cases: readonly CorpusCase[]): EvaluationReport {
  const outcomes: Outcome[] = [];
  for (const c of cases) {
    for (const [check, expected] of Object.entries(c.labels) as Array<[CheckName, VerdictKind]>) {
      outcomes.push({ c, check, expected, verdict: detectors[check](c.reply, c.expectation) });
    }
  }
  const misses = outcomes
    .filter((o) => (o.expected === 'fail') !== (o.verdict.verdict === 'fail') || (o.expected === 'inconclusive' && o.verdict.verdict === 'pass'))
    .map((o) => ({ id: o.c.id, check: o.check, expected: o.expected, got: o.verdict.verdict, reason: o.verdict.reason, split: o.c.split }));
  return {
    corpus: { cases: cases.length, labels: outcomes.length, tune: cases.filter((c) => c.split === 'tune').length, holdout: cases.filter((c) => c.split === 'holdout').length },
    all: report(outcomes),
    tune: report(outcomes.filter((o) => o.c.split === 'tune')),
    holdout: report(outcomes.filter((o) => o.c.split === 'holdout')),
    misses,
  };
}

function report(outcomes: readonly Outcome[]): SplitReport {
  const checks: Partial<Record<CheckName, CheckMetrics>> = {};
  for (const check of Object.keys(detectors) as CheckName[]) {
    const mine = outcomes.filter((o) => o.check === check);
    if (mine.length === 0) continue;
    const faults = mine.filter((o) => o.expected === 'fail');
    const caught = faults.filter((o) => o.verdict.verdict === 'fail').length;
    const falseFails = mine.filter((o) => o.expected !== 'fail' && o.verdict.verdict === 'fail').length;
    const inconclusive = mine.filter((o) => o.verdict.verdict === 'inconclusive').length;
    checks[check] = {
      cases: mine.length,
      faults: faults.length,
      caught,
      falseFails,
      precision: caught + falseFails === 0 ? 1 : caught / (caught + falseFails),
      recall: faults.length === 0 ? 1 : caught / faults.length,
      inconclusive,
      inconclusiveShare: inconclusive / mine.length,
    };
  }
  const mixing: Record<string, SliceMetrics> = {};
  for (const [name, pairs] of Object.entries(MIXING_PAIRS)) {
    const slice = outcomes.filter(
      (o) => o.check === 'language' && o.c.transform.startsWith('splice:') && pairs.includes(o.c.meta?.pair ?? '') && (o.c.meta?.chars ?? 0) >= MIXING_MIN_CHARS,
    );
    const caught = slice.filter((o) => o.verdict.verdict === 'fail').length;
    mixing[name] = { cases: slice.length, caught, recall: slice.length === 0 ? 0 : caught / slice.length };
  }
  return { checks, mixing };
}
