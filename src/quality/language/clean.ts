// What does not count as drift: code, URLs, e-mail addresses, markup and code-like names are
// blanked out (offsets kept, so evidence can quote the original), and quoted spans are marked
// so that a quoted foreign phrase is excused rather than counted.

export interface CleanText {
  /** The reply with non-language spans replaced by spaces; newlines kept, so lines stay lines. */
  text: string;
  /** 1 for each UTF-16 code unit inside quotation marks or a short *emphasis*. */
  quoted: Uint8Array;
}

const FENCE = /(```|~~~)[^\n]*\n?[\s\S]*?(?:\1|$)/g;
const INLINE_CODE = /`[^`\n]+`/g;
const URL = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.)[^\s<>"'）」]+/gi;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const TAG = /<\/?[A-Za-z|][^<>\n]{0,200}>|<\|[^|\n]{0,40}\|>/g;
const LINK_TARGET = /\]\([^)\s]*\)/g;
// snake_case, camelCase, dotted.calls(): identifiers, which read as no language at all.
const IDENTIFIER = /\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b|\b[A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*\b|\b\w+(?:\.\w+)*\(\)/g;
const LOOKS_LIKE_IDENTIFIER = /[A-Za-z0-9]_[A-Za-z0-9]|[a-z][A-Z]|\(\)/;

export function cleanForLanguage(original: string): CleanText {
  let text = original;
  if (text.includes('```') || text.includes('~~~')) text = blank(text, FENCE);
  if (text.includes('`')) text = blank(text, INLINE_CODE);
  if (text.includes('://') || text.includes('www.')) text = blank(text, URL);
  if (text.includes('@')) text = blank(text, EMAIL);
  if (text.includes('<')) text = blank(text, TAG);
  if (text.includes('](')) text = blank(text, LINK_TARGET);
  if (LOOKS_LIKE_IDENTIFIER.test(text)) text = blank(text, IDENTIFIER);
  return { text, quoted: markQuotes(text) };
}

function blank(text: string, pattern: RegExp): string {
  return text.replace(pattern, (match) => match.replace(/[^\n]/g, ' '));
}

// Opening mark → the marks that may close it. German and Polish open „ and close “ or ”.
const CLOSERS = new Map<number, readonly number[]>(
  Object.entries({ '“': '”', '„': '“”', '«': '»', '‹': '›', '「': '」', '『': '』', '"': '"', '＂': '＂', '*': '*', '_': '_' }).map(([open, close]) => [
    open.charCodeAt(0),
    Array.from(close, (c) => c.charCodeAt(0)),
  ]),
);
const ANY_OPENER = /["“„«‹「『＂*_]/;
const STAR = 0x2a;
const UNDERSCORE = 0x5f;
const NEWLINE = 0x0a;
const MAX_QUOTE = 400; // code units; a longer "quotation" is the reply itself
const MAX_EMPHASIS = 80;
const WORD_CHAR = /[\p{L}\p{N}]/u;

function markQuotes(text: string): Uint8Array {
  const quoted = new Uint8Array(text.length);
  if (!ANY_OPENER.test(text)) return quoted;
  for (let i = 0; i < text.length; i++) {
    const opener = text.charCodeAt(i);
    const closers = CLOSERS.get(opener);
    if (closers === undefined) continue;
    const emphasis = opener === STAR || opener === UNDERSCORE;
    if (emphasis && !opensEmphasis(text, i)) continue;
    const limit = Math.min(text.length, i + 1 + (emphasis ? MAX_EMPHASIS : MAX_QUOTE));
    let close = -1;
    for (let j = i + 1; j < limit; j++) {
      const c = text.charCodeAt(j);
      if (c === NEWLINE && (emphasis || text.charCodeAt(j + 1) === NEWLINE)) break; // quotes do not cross paragraphs
      if (closers.includes(c)) {
        close = j;
        break;
      }
    }
    if (close < 0) continue;
    quoted.fill(1, i, close + 1);
    i = close;
  }
  return quoted;
}

/** `*word` or `_word` opens emphasis; `* item` (a list bullet) and `a*b` do not. */
function opensEmphasis(text: string, i: number): boolean {
  const next = text.charCodeAt(i + 1);
  if (Number.isNaN(next) || next === text.charCodeAt(i) || next === 0x20 || next === 0x0a || next === 0x09) return false;
  return i === 0 || !WORD_CHAR.test(text[i - 1] ?? ' ');
}
