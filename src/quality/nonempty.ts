// `nonempty`: a reply with nothing in it — no text, only whitespace or markup — or one cut
// off by the token limit before it said anything.
import { contentOf, contentWeight, hasContentQuick } from './text.js';
import type { Detector } from './types.js';
import { fail, pass, quote } from './verdict.js';

const CHECK = 'nonempty';
/** A reply stopped by `length` with less content than this (letters; CJK ×3) said nothing. */
const CUT_OFF_WEIGHT = 12;

export const nonempty: Detector = (reply) => {
  const { text, finishReason } = reply;
  if (text.length === 0) return fail(CHECK, 'empty', { detail: 'no text at all', evidence: { finishReason } });
  if (text.trim().length === 0) return fail(CHECK, 'whitespace_only', { evidence: { length: text.length, finishReason } });
  if (!hasContentQuick(text)) return fail(CHECK, 'markup_only', { detail: 'markup or punctuation, no words', evidence: { text: quote(text.trim()) } });
  if (finishReason === 'length') {
    const content = contentOf(text);
    const weight = contentWeight(content);
    if (weight < CUT_OFF_WEIGHT) return fail(CHECK, 'cut_off', { detail: 'stopped by the token limit almost at once', evidence: { text: quote(content), finishReason } });
  }
  return pass(CHECK);
};
