// `minlen`: at least N characters of content (markup and runs of whitespace do not count).
import { contentLength } from './text.js';
import type { Detector } from './types.js';
import { fail, inconclusive, pass } from './verdict.js';

const CHECK = 'minlen';

export const minlen: Detector = (reply, expectation) => {
  const minimum = expectation.minLength;
  if (minimum === undefined) return inconclusive(CHECK, 'no_expectation', { detail: 'no minLength given' });
  // Code points, not UTF-16 units: an emoji or a rare Han character is one character.
  // Counting stops once there is enough: a 1,000-character reply against minLength 200 reads 200.
  const length = contentLength(reply.text, minimum);
  return length >= minimum ? pass(CHECK, 'ok', { evidence: { minLength: minimum } }) : fail(CHECK, 'too_short', { evidence: { length, minLength: minimum } });
};
