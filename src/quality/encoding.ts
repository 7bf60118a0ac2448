// `encoding`: damage done between the model's bytes and our text. U+FFFD, classic mojibake
// (UTF-8 read as Windows-1252: Ã©, â€™, æ–‡), stray control characters, lone surrogates,
// and tokenizer residue (Ġ/▁ word markers, <0xE6> byte tokens) that should never be shown.
import type { Detector } from './types.js';
import { fail, pass, quoteAt } from './verdict.js';

const CHECK = 'encoding';

// Windows-1252's 0x80–0x9F; the holes (81, 8D, 8F, 90, 9D) pass through as C1 characters.
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
const BYTE_OF = new Map<string, number>();
for (let b = 0x80; b <= 0xff; b++) BYTE_OF.set(b < 0xa0 ? (CP1252_HIGH[b - 0x80] ?? '') : String.fromCharCode(b), b);
const CONTINUATION = `[${escapeClass([...BYTE_OF].filter(([, b]) => b <= 0xbf).map(([c]) => c).join(''))}]`;
// A UTF-8 lead byte (Â … ô) followed by one to three continuation bytes, all misread.
const MOJIBAKE = new RegExp(`[\\u00C2-\\u00F4]${CONTINUATION}{1,3}`, 'g');
// What U+FFFD and uninitialised memory turn into through GBK: famous enough to name.
const GBK_GARBAGE = /锟斤拷|烫烫烫|屯屯屯/;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const WORD_MARKER = /[\u0120\u2581][\p{L}]/gu;
const BYTE_TOKEN = /<0x[0-9A-Fa-f]{2}>/g;
const MIN_MARKERS = 3;
const MIN_BYTE_TOKENS = 2;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export const encoding: Detector = (reply) => {
  const { text } = reply;
  const replacement = text.indexOf('\uFFFD');
  if (replacement >= 0) {
    return fail(CHECK, 'replacement_character', { detail: 'U+FFFD: bytes that could not be decoded', evidence: { span: quoteAt(text, replacement, replacement + 1), count: count(text, /\uFFFD/g) } });
  }
  const mojibake = findMojibake(text);
  if (mojibake) {
    return fail(CHECK, 'mojibake', { detail: 'UTF-8 read as Windows-1252', evidence: { span: quoteAt(text, mojibake.index, mojibake.index + mojibake.raw.length), decoded: mojibake.decoded } });
  }
  const garbage = GBK_GARBAGE.exec(text);
  if (garbage) return fail(CHECK, 'mojibake', { detail: 'replacement characters read as GBK', evidence: { span: quoteAt(text, garbage.index, garbage.index + garbage[0].length) } });
  const control = CONTROL.exec(text);
  if (control) {
    const code = `U+${(control[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    return fail(CHECK, 'control_character', { evidence: { character: code, span: quoteAt(text, control.index, control.index + 1).replace(CONTROL_ALL, '·') } });
  }
  const surrogate = LONE_SURROGATE.exec(text);
  if (surrogate) return fail(CHECK, 'lone_surrogate', { detail: 'half of a UTF-16 pair: a stream cut inside a character', evidence: { offset: surrogate.index } });
  const markers = count(text, WORD_MARKER);
  const byteTokens = count(text, BYTE_TOKEN);
  if (markers >= MIN_MARKERS || byteTokens >= MIN_BYTE_TOKENS) {
    const at = text.search(markers >= MIN_MARKERS ? /[\u0120\u2581]/ : BYTE_TOKEN);
    return fail(CHECK, 'tokenizer_residue', { detail: 'raw tokenizer pieces in the text', evidence: { span: quoteAt(text, at, at + 4), markers, byteTokens } });
  }
  return pass(CHECK);
};

const CONTROL_ALL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g;

/** The first misread sequence that decodes back into valid UTF-8, with what it should have said. */
function findMojibake(text: string): { index: number; raw: string; decoded: string } | undefined {
  MOJIBAKE.lastIndex = 0;
  for (let m = MOJIBAKE.exec(text); m; m = MOJIBAKE.exec(text)) {
    const raw = m[0];
    const lead = BYTE_OF.get(raw[0] ?? '') ?? 0;
    const need = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : 1;
    if (raw.length < need + 1) continue;
    const bytes = Uint8Array.from(raw.slice(0, need + 1), (c) => BYTE_OF.get(c) ?? 0);
    try {
      const decoded = utf8.decode(bytes);
      return { index: m.index, raw: raw.slice(0, need + 1), decoded };
    } catch {
      // Not valid UTF-8 once mapped back: ordinary text that happens to look like this.
    }
  }
  return undefined;
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

function escapeClass(chars: string): string {
  return chars.replace(/[\\\]^-]/g, '\\$&');
}
