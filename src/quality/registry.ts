// Every check by its config name, and the two ways callers use them: run a list, and sum
// the verdicts up (fail beats inconclusive beats pass).
import { encoding } from './encoding.js';
import { QualityError } from './errors.js';
import { fact } from './fact.js';
import { language } from './language/index.js';
import { minlen } from './minlen.js';
import { nonempty } from './nonempty.js';
import { prefix } from './prefix.js';
import { refusal } from './refusal.js';
import { repetition } from './repetition.js';
import { schema } from './schema/index.js';
import { CHECK_NAMES, type CheckName, type Detector, type Expectation, type Reply, type Verdict, type VerdictKind } from './types.js';

export const detectors: Readonly<Record<CheckName, Detector>> = Object.freeze({
  nonempty, refusal, schema, language, encoding, repetition, prefix, fact, minlen,
});

export function isCheckName(name: string): name is CheckName {
  return (CHECK_NAMES as readonly string[]).includes(name);
}

/** Runs the named checks in the order given; an unknown name is the caller's error. */
export function runChecks(names: readonly string[], reply: Reply, expectation: Expectation = {}): Verdict[] {
  return names.map((name) => {
    if (!isCheckName(name)) throw new QualityError('unknown_check', `unknown check "${name}" (known: ${CHECK_NAMES.join(', ')})`);
    return detectors[name](reply, expectation);
  });
}

const RANK: Readonly<Record<VerdictKind, number>> = { pass: 0, inconclusive: 1, fail: 2 };

/** The verdict that decides: any fail, else any inconclusive, else pass (also for no checks). */
export function worstVerdict(verdicts: readonly Pick<Verdict, 'verdict'>[]): VerdictKind {
  let worst: VerdictKind = 'pass';
  for (const v of verdicts) if (RANK[v.verdict] > RANK[worst]) worst = v.verdict;
  return worst;
}
