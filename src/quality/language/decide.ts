// From unit judgements to one verdict: FINDINGS' integrity rule. Too little text is
// inconclusive; foreign over half is a switch; two foreign units or a large one is mixing; a
// single short foreign or quoted span passes (with a note), as quotations and names do.
import { fail, inconclusive, pass, quote } from '../verdict.js';
import type { Verdict } from '../types.js';
import type { Judgement } from './judge.js';

const CHECK = 'language';
/** Below this much judged weight (English letters' worth, see letterWeight) a reply is too short to call. */
export const MIN_TOTAL_WEIGHT = 40;
const WRONG_SHARE = 0.5;
/** Two or more foreign units are mixing once they reach this share of the reply. */
const MIXED_SHARE = 0.15;
/** A single foreign unit is mixing when it is this large, by share and by weight. */
const SINGLE_SHARE = 0.25;
const SINGLE_WEIGHT = 60;

export function decide(judgements: readonly Judgement[], reply: string, expected: string, inferred: boolean): Verdict {
  let native = 0;
  let ambiguous = 0;
  let excusedWeight = 0;
  const foreign: Judgement[] = [];
  const excused: Judgement[] = [];
  for (const j of judgements) {
    const w = j.reading.unit.weight;
    if (j.kind === 'native') native += w;
    else if (j.kind === 'ambiguous') ambiguous += w;
    else if (j.kind === 'foreign') {
      if (j.quoted) {
        excused.push(j);
        excusedWeight += w;
      } else foreign.push(j);
    }
  }
  // Quotations are excused only inside a reply that is mostly in the expected language.
  if (excusedWeight > native) {
    foreign.push(...excused);
    excused.length = 0;
    excusedWeight = 0;
  }
  const foreignWeight = foreign.reduce((sum, j) => sum + j.reading.unit.weight, 0);
  const total = native + ambiguous + foreignWeight;
  const expectedNote = inferred ? { inferred: expected } : { expected };
  if (total < MIN_TOTAL_WEIGHT) {
    return inconclusive(CHECK, 'too_short', { detail: 'too little text to judge its language', evidence: { ...expectedNote, weight: total } });
  }
  const share = foreignWeight / total;
  const evidence = (): Record<string, unknown> => ({ ...expectedNote, ...describe(foreign, total, reply) });
  if (!inferred && share > WRONG_SHARE) {
    return fail(CHECK, 'wrong_language', { detail: `the reply is mostly not in ${expected}`, evidence: evidence() });
  }
  const run = largestRun(judgements, expected, new Set(foreign));
  // Ambiguous units leaning to a language already found foreign back that finding up.
  const foreignLanguages = new Set(foreign.map((j) => j.language));
  const backing = judgements.filter((j) => j.kind === 'ambiguous' && foreignLanguages.has(leaning(j, expected)));
  const backedWeight = foreignWeight + backing.reduce((sum, j) => sum + j.reading.unit.weight, 0);
  const units = foreign.length + backing.length;
  if ((foreign.length >= 1 && units >= 2 && backedWeight >= MIXED_SHARE * total) || (run >= SINGLE_SHARE * total && run >= SINGLE_WEIGHT)) {
    return fail(CHECK, 'mixed_language', { detail: `sentences in another language inside a ${expected} reply`, evidence: evidence() });
  }
  if (native >= total / 2) {
    if (foreign.length === 0 && excused.length === 0) return pass(CHECK, 'ok', { evidence: { ...expectedNote, native: round(native / total) } });
    const note = foreign.length > 0 ? 'a short foreign span, not sustained' : 'a quoted foreign phrase';
    return pass(CHECK, 'ok', { detail: note, evidence: { ...expectedNote, ...describe([...foreign, ...excused], total, reply) } });
  }
  return inconclusive(CHECK, 'ambiguous_language', {
    detail: `too little of the reply reads clearly as ${expected}`,
    evidence: { ...expectedNote, native: round(native / total), ambiguous: round(ambiguous / total) },
  });
}

/**
 * The weight of the largest stretch of one foreign language: consecutive foreign units, with
 * the ambiguous units among them that lean the same way (a Spanish sentence eld finds close
 * to Portuguese is still Spanish when the sentences around it are).
 */
function largestRun(judgements: readonly Judgement[], expected: string, foreign: ReadonlySet<Judgement>): number {
  let best = 0;
  let language: string | undefined;
  let weight = 0;
  let anchored = false;
  for (const j of judgements) {
    if (j.kind === 'neutral') continue;
    const lean = foreign.has(j) ? j.language : j.kind === 'ambiguous' ? leaning(j, expected) : undefined;
    if (lean === undefined) {
      language = undefined;
      weight = 0;
      anchored = false;
      continue;
    }
    if (lean !== language) {
      language = lean;
      weight = 0;
      anchored = false;
    }
    weight += j.reading.unit.weight;
    anchored ||= foreign.has(j);
    if (anchored) best = Math.max(best, weight);
  }
  return best;
}

/** The language an ambiguous unit leans to, when it is not the expected one. */
function leaning(j: Judgement, expected: string): string | undefined {
  const { scores, hanForms } = j.reading;
  const top = scores?.ranked[0]?.language ?? (hanForms && hanForms.chinese > hanForms.japanese ? 'zh' : undefined);
  return top === expected ? undefined : top;
}

function describe(foreign: readonly Judgement[], total: number, reply: string): Record<string, unknown> {
  const byLanguage = new Map<string, number>();
  for (const j of foreign) byLanguage.set(j.language ?? '?', (byLanguage.get(j.language ?? '?') ?? 0) + j.reading.unit.weight);
  const languages = [...byLanguage]
    .sort((a, b) => b[1] - a[1])
    .map(([language, weight]) => ({ language, share: round(weight / total) }));
  const first = foreign[0];
  if (!first) return { languages };
  const { unit, scores } = first.reading;
  return {
    languages,
    foreignUnits: foreign.length,
    span: quote(reply.slice(unit.start, unit.end).trim()),
    ...(scores ? { scores: Object.fromEntries(scores.ranked.map((s) => [s.language, round(s.score)])) } : {}),
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
