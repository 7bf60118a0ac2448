// Text helpers several checks share: what counts as content once markup is gone.

const TAGS = /<\/?[A-Za-z][^<>]{0,200}>|<\|[^|]{0,40}\|>/g;
// Markdown structure: headings, quotes, bullets, emphasis, rules, table pipes, fences.
const MARKDOWN = /^\s{0,3}(?:#{1,6}|>|[-*+]|\d+[.)])\s+|[*_~`|]+|^\s*[-=]{3,}\s*$/gm;
const CONTENT_CHAR = /[\p{L}\p{N}\p{Extended_Pictographic}]/u;
const CONTENT_CHARS = /[\p{L}\p{N}\p{Extended_Pictographic}]/gu;
const WIDE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/gu;

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
