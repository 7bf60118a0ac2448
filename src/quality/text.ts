// Text helpers several checks share: what counts as content once markup is gone.

const TAGS = /<\/?[A-Za-z][^<>]{0,200}>|<\|[^|]{0,40}\|>/g;
// Markdown structure: headings, quotes, bullets, emphasis, rules, table pipes, fences.
const MARKDOWN = /^\s{0,3}(?:#{1,6}|>|[-*+]|\d+[.)])\s+|[*_~`|]+|^\s*[-=]{3,}\s*$/gm;
const CONTENT_CHAR = /[\p{L}\p{N}\p{Extended_Pictographic}]/u;
const CONTENT_CHARS = /[\p{L}\p{N}\p{Extended_Pictographic}]/gu;
const WIDE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/gu;

const LETTER_OR_EMOJI = /[\p{L}\p{Extended_Pictographic}]/u;
const LINE_MARKER = /^[ \t]{0,3}(?:#{1,6}|>|[-*+]|\d+[.)])[ \t]+/;
const RULE_LINE = /^[ \t]*[-=]{3,}[ \t]*$/;
const TAG_AT = /^(?:<\/?[A-Za-z][^<>]{0,200}>|<\|[^|]{0,40}\|>)/;
const INLINE_MARKUP = new Set(Array.from('*_~`|', (c) => c.charCodeAt(0)));

/**
 * Code points of content, as contentOf would keep them, counted in one pass without building
 * the string, stopping once `enough` is reached (minlen needs only to know that).
 */
export function contentLength(text: string, enough = Infinity): number {
  let length = 0;
  let pendingSpace = false;
  let lineStart = true;
  for (let i = 0; i < text.length && length < enough; i++) {
    if (lineStart) {
      lineStart = false;
      const end = text.indexOf('\n', i);
      const line = text.slice(i, end < 0 ? text.length : end);
      if (RULE_LINE.test(line)) {
        i += line.length - 1;
        pendingSpace = length > 0;
        continue;
      }
      const marker = LINE_MARKER.exec(line);
      if (marker) {
        i += marker[0].length - 1;
        pendingSpace = length > 0;
        continue;
      }
    }
    const c = text.charCodeAt(i);
    if (c === 0x0a) lineStart = true;
    if (c === 0x3c) {
      const tag = TAG_AT.exec(text.slice(i, i + 260));
      if (tag) {
        i += tag[0].length - 1;
        pendingSpace = length > 0;
        continue;
      }
    }
    if (INLINE_MARKUP.has(c) || (c >= 0xdc00 && c <= 0xdfff)) continue; // markup; second half of a pair
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x3000 || c === 0x2028 || c === 0x2029) {
      pendingSpace = length > 0;
      continue;
    }
    if (pendingSpace) length++;
    pendingSpace = false;
    length++;
  }
  return length;
}

/** Whether a reply has content, without building its content when it plainly has: a letter outside any tag. */
export function hasContentQuick(text: string): boolean {
  if (!text.includes('<') && LETTER_OR_EMOJI.test(text)) return true;
  return hasContent(contentOf(text));
}

/** The reply without HTML tags and markdown markers, whitespace collapsed and trimmed. */
export function contentOf(text: string): string {
  return text.replace(TAGS, ' ').replace(MARKDOWN, ' ').replace(/\s+/g, ' ').trim();
}

/** Whether there is any letter, digit or emoji at all. */
export function hasContent(text: string): boolean {
  return CONTENT_CHAR.test(text);
}

/**
 * How much content a text carries: letters, digits and emoji, a Han, kana or Hangul
 * character counting three (about a word's worth), so one threshold serves every script.
 */
export function contentWeight(text: string): number {
  const all = text.match(CONTENT_CHARS)?.length ?? 0;
  const wide = text.match(WIDE)?.length ?? 0;
  return all + 2 * wide;
}
