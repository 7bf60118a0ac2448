// Seed 000's confirmation rule: one anomalous language reply could be chance, so two more are
// asked for at once and the majority of the three decides. The round after an anomaly tests
// the same language again, so rotation cannot carry a drifting route past the two-round rule.
import type { ProbeResult, ProbeVerdict } from './types.js';

/** Whether a language probe's result calls for two immediate confirmations. */
export function needsConfirmation(result: ProbeResult): boolean {
  return result.kind === 'language' && result.verdict === 'fail' && result.evidence.confirmations === undefined;
}

/**
 * The language probe's result from the first reply and its confirmations: a fail when most of
 * them failed; a pass when most passed; otherwise inconclusive (no clear majority, or most of
 * them said nothing — an unanswered or ambiguous confirmation is not an acquittal).
 */
export function decideLanguage(first: ProbeResult, confirmations: readonly ProbeResult[]): ProbeResult {
  const all = [first, ...confirmations];
  const verdicts: ProbeVerdict[] = all.map((r) => r.verdict);
  const majority = Math.floor(all.length / 2) + 1;
  const count = (verdict: ProbeVerdict) => verdicts.filter((v) => v === verdict).length;
  if (count('fail') >= majority) {
    const failed = all.find((r) => r.verdict === 'fail') ?? first;
    return { ...failed, evidence: { ...failed.evidence, confirmations: verdicts } };
  }
  if (count('pass') >= majority) {
    const passed = all.find((r) => r.verdict === 'pass') ?? first;
    return { ...passed, evidence: { ...passed.evidence, confirmations: verdicts } };
  }
  return { ...first, verdict: 'inconclusive', reason: 'not_confirmed', evidence: { ...first.evidence, confirmations: verdicts } };
}

/** Whether a round's language result saw drift, confirmed or not: the next round retests that language. */
export function isLanguageAnomaly(result: ProbeResult): boolean {
  return result.kind === 'language' && (result.verdict === 'fail' || result.evidence.confirmations?.[0] === 'fail');
}
