// `refusal`: extra filtering and silent refusal (seed 000's "policy mismatch"): a
// content_filter finish, a high-confidence refusal opening in any product language, or a
// reply the provider stopped half-way (finished "normally" on a dangling comma or colon).
import { REFUSAL_PHRASES } from './refusal-phrases.js';
import type { Detector } from './types.js';
import { fail, pass, quote } from './verdict.js';

const CHECK = 'refusal';
/** Refusals are said first; only the opening is searched. */
const OPENING_CHARS = 300;
const LEADING_MARKUP = /^(?:\s|#{1,6}\s|>\s?|\*\*|__)+/;
// In character: a reply that opens with dialogue or a role-play action speaks as the character.
const IN_CHARACTER = /^(?:["“「『«„]|\*[^*\s][^*\n]*\*)/;
// A sentence cut where nothing can end: after a comma, a colon, an opening bracket or quote.
// (Not a dash: "But I—" is how fiction breaks off a line.)
const DANGLING = /[,，、:：;；(（[【「『“«]$/;
const EMOTICON_END = /[:;=][-']?[(\[]$/;

export const refusal: Detector = (reply, expectation) => {
  if (reply.finishReason === 'content_filter') {
    return fail(CHECK, 'content_filter', { detail: 'the provider filtered the reply', evidence: { finishReason: reply.finishReason, text: quote(reply.text.trim()) } });
  }
  if (reply.refused) {
    return fail(CHECK, 'refusal_field', { detail: 'the provider answered with its refusal field', evidence: { text: quote(reply.text.trim()) } });
  }
  const phrase = refusalPhrase(reply.text, expectation.language);
  if (phrase) return fail(CHECK, 'refusal_phrase', { detail: 'the reply opens with a refusal', evidence: phrase });
  const end = reply.text.trimEnd();
  if (!reply.partial && (reply.finishReason === 'stop' || reply.finishReason === null) && DANGLING.test(end) && !EMOTICON_END.test(end)) {
    return fail(CHECK, 'stopped_mid_sentence', {
      detail: 'the reply finished normally in the middle of a sentence',
      evidence: { end: quote(end.slice(-40)), finishReason: reply.finishReason },
    });
  }
  return pass(CHECK);
};

function refusalPhrase(text: string, expected: string | undefined): { phrase: string; language: string } | undefined {
  const opening = text.replace(LEADING_MARKUP, '').slice(0, OPENING_CHARS).toLowerCase().replace(/[’‘`]/g, "'");
  if (IN_CHARACTER.test(opening)) return undefined;
  // The expected language first, for the evidence; a refusal in any language is still one.
  const order = expected && Object.hasOwn(REFUSAL_PHRASES, expected) ? [expected, ...Object.keys(REFUSAL_PHRASES).filter((l) => l !== expected)] : Object.keys(REFUSAL_PHRASES);
  for (const language of order) {
    for (const pattern of REFUSAL_PHRASES[language] ?? []) {
      const m = pattern.exec(opening);
      if (m) return { phrase: quote(m[0]), language };
    }
  }
  return undefined;
}
