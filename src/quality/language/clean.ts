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
const CLOSERS: Readonly<Record<string, string>> = {
  '“': '”', '„': '“”', '«': '»', '‹': '›', '「': '」', '『': '』', '"': '"', '＂': '＂', '*': '*', '_': '_',
};
const MAX_QUOTE = 400; // code units; a longer "quotation" is the reply itself
const MAX_EMPHASIS = 80;

function markQuotes(text: string): Uint8Array {
  const quoted = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const closers = CLOSERS[text[i] ?? ''];
    if (closers === undefined) continue;
    const emphasis = text[i] === '*' || text[i] === '_';
    if (emphasis && !opensEmphasis(text, i)) continue;
    const limit = Math.min(text.length, i + 1 + (emphasis ? MAX_EMPHASIS : MAX_QUOTE));
    let close = -1;
    for (let j = i + 1; j < limit; j++) {
      const c = text[j] ?? '';
      if (c === '\n' && (emphasis || text[j + 1] === '\n')) break; // quotes do not cross paragraphs
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
  const next = text[i + 1] ?? ' ';
  const previous = i > 0 ? (text[i - 1] ?? ' ') : ' ';
  return !/\s/.test(next) && next !== text[i] && !/[\p{L}\p{N}]/u.test(previous);
}
