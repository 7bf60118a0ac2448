// `language`: is the reply in the expected language, start to end? Catches a whole-reply
// switch and sustained mixing (pt with Spanish sentences, en with Chinese ones); code,
// URLs, names and quotations do not count; short or ambiguous text is inconclusive.
import type { Detector, Expectation, Reply, Verdict } from '../types.js';
import { inconclusive } from '../verdict.js';
import { cleanForLanguage } from './clean.js';
import { decide } from './decide.js';
import { FOREIGN_GAP, judgeUnit } from './judge.js';
import { ngramModel } from './ngram-model.js';
import { ownLanguage, read, type Reading } from './read.js';
import { LANGUAGE_GROUP } from './script.js';
import { MIN_UNIT_WEIGHT, segment } from './segment.js';

/** The 17 product languages. eld answers `ms` for Indonesian; it is reported as `id`. */
export const LANGUAGES = ['en', 'zh', 'ja', 'ko', 'es', 'pt', 'fr', 'de', 'it', 'ru', 'ar', 'hi', 'id', 'vi', 'th', 'tr', 'pl'] as const;
export type Language = (typeof LANGUAGES)[number];

const CHECK = 'language';
/** Without an expected language, one language must hold this share for mixing to be judged against it. */
const MIN_DOMINANT_SHARE = 0.6;

export const language: Detector = (reply: Reply, expectation: Expectation): Verdict => {
  const expected = expectation.language?.toLowerCase();
  if (expected !== undefined && !Object.hasOwn(LANGUAGE_GROUP, expected)) {
    return inconclusive(CHECK, 'unsupported_language', { detail: `"${expected}" is not one of the ${LANGUAGES.length} product languages` });
  }
  const readings = segment(cleanForLanguage(reply.text)).map(read);
  const target = expected ?? dominantLanguage(readings) ?? majorityBesideOtherScript(readings);
  if (target === undefined) {
    return inconclusive(CHECK, 'no_dominant_language', { detail: 'no language expected and none dominates the reply' });
  }
  return decide(
    readings.map((r) => judgeUnit(r, target)),
    reply.text,
    target,
    expected === undefined,
  );
};

function dominantLanguage(readings: readonly Reading[], productOnly = false): string | undefined {
  const { ranked, total } = languageWeights(readings, productOnly);
  const best = ranked[0];
  // Mixing is judged against a product language only: its script is known, so is its drift.
  return best !== undefined && LANGUAGE_GROUP[best[0]] !== undefined && best[1] >= MIN_DOMINANT_SHARE * total ? best[0] : undefined;
}

/**
 * Without an expected language and with none dominant: the majority language, when the next
 * language is written in another script. An English reply carrying Chinese sentences (the
 * demo's Drifty provider: 55% English, 45% Chinese) has no second reading the way pt and es
 * can, so it is judged for mixing against English instead of passing as inconclusive.
 */
function majorityBesideOtherScript(readings: readonly Reading[]): string | undefined {
  const { ranked, total } = languageWeights(readings, false);
  const [first, second] = ranked;
  if (!first || !second) return undefined;
  const group = LANGUAGE_GROUP[first[0]];
  const secondGroup = LANGUAGE_GROUP[second[0]];
  if (group === undefined || secondGroup === undefined || group === secondGroup) return undefined;
  return first[1] > total / 2 ? first[0] : undefined;
}

/** Each language's weight over the units whose own language is clear, heaviest first. */
function languageWeights(readings: readonly Reading[], productOnly: boolean): { ranked: Array<[string, number]>; total: number } {
  const weights = new Map<string, number>();
  let total = 0;
  for (const reading of readings) {
    const own = ownLanguage(productOnly ? productReading(reading) : reading, FOREIGN_GAP);
    total += reading.unit.weight;
    if (own) weights.set(own, (weights.get(own) ?? 0) + reading.unit.weight);
  }
  return { ranked: [...weights].sort((a, b) => b[1] - a[1]), total };
}

export { Script, scriptOf, lowerCodeUnit } from './script.js';

/**
 * The product language a text is written in, when one clearly dominates it: used to expect
 * the user's own language in a reply when neither the role nor the request names one.
 */
export function dominantLanguageOf(text: string): Language | undefined {
  const readings = segment(cleanForLanguage(text)).map(read);
  // Only the 17 product languages compete here: a Russian message must not be left without
  // an expected language because eld finds Ukrainian and Bulgarian close behind.
  const found = dominantLanguage(readings, true) as Language | undefined;
  // Ten product languages share the Latin script, and a few words of it say little: "Hello!"
  // read as Italian, and every English answer to it failed the check (the demo's chat role
  // degraded on every greeting). Latin text too small to say anything on its own (a unit's
  // minimum) sets no expectation; a script of its own (Han, Hangul, Cyrillic…) says enough.
  if (found !== undefined && LANGUAGE_GROUP[found] === 'latin' && readings.reduce((sum, r) => sum + r.unit.weight, 0) < MIN_UNIT_WEIGHT) return undefined;
  return found;
}

function productReading(reading: Reading): Reading {
  if (!reading.scores) return reading;
  return { ...reading, scores: { ...reading.scores, ranked: reading.scores.ranked.filter((r) => LANGUAGE_GROUP[r.language] !== undefined) } };
}

/** Loads eld's n-gram data now (~0.5 s) instead of at the first reply that needs it. */
export function warmUpLanguage(): void {
  ngramModel();
}
