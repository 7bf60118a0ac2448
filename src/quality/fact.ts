// `fact`: normalised exact match against the accepted answers of a fixed question ("the
// capital of France": "巴黎" and "Paris" both, when both are listed). Case, width (Ｐａｒｉｓ),
// punctuation, markup and surrounding whitespace are folded; anything else is a wrong answer.
import type { Detector } from './types.js';
import { fail, inconclusive, pass, quote } from './verdict.js';

const CHECK = 'fact';

const PUNCTUATION_OR_SYMBOL = /[\p{P}\p{S}]+/gu;
const WIDE_NEIGHBOURS = /(?<=[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]) (?=[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])/gu;

/** The form answers are compared in: NFKC (full-width → ASCII), lower case, no punctuation, one space. */
export function normaliseAnswer(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(PUNCTUATION_OR_SYMBOL, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(WIDE_NEIGHBOURS, '');
}

export const fact: Detector = (reply, expectation) => {
  const accepted = expectation.expected ?? [];
  if (accepted.length === 0) return inconclusive(CHECK, 'no_expectation', { detail: 'no expected answer given' });
  // Normalising only removes punctuation, markup and spaces: a reply many times longer than
  // every answer cannot fold down to one, and a 1,000-character reply need not be folded.
  const longest = Math.max(...accepted.map((a) => a.length));
  if (reply.text.length > 4 * longest + 32) {
    return fail(CHECK, 'wrong_answer', { detail: 'the reply is far longer than any accepted answer', evidence: { got: quote(reply.text.trim()), expected: accepted.slice(0, 5) } });
  }
  const got = normaliseAnswer(reply.text);
  if (accepted.some((answer) => normaliseAnswer(answer) === got)) return pass(CHECK, 'ok', { evidence: { answer: quote(got) } });
  return fail(CHECK, 'wrong_answer', { detail: 'the reply is not one of the accepted answers', evidence: { got: quote(got), expected: accepted.slice(0, 5) } });
};
