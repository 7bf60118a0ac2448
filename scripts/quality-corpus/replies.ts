// Good replies made of real UDHR sentences, in the shapes chat replies take (a paragraph,
// two paragraphs, a list, a heading), and the small helpers every fault family shares.
import type { CheckName, VerdictKind } from '../../src/quality/index.js';
import type { CorpusCase } from '../../bench/quality-eval/case.js';
import type { Random } from './rng.js';
import { loadArticles, type Article } from './udhr.js';

export const LANGUAGES = ['en', 'zh', 'ja', 'ko', 'es', 'pt', 'fr', 'de', 'it', 'ru', 'ar', 'hi', 'id', 'vi', 'th', 'tr', 'pl'] as const;
export type Split = CorpusCase['split'];

const UNSPACED = new Set(['zh', 'ja', 'th']);
const CJK = new Set(['zh', 'ja']);
const FULL_STOP: Readonly<Record<string, string>> = { zh: '。', ja: '。', hi: ' ।', th: '' };

export interface Reply {
  text: string;
  sentences: string[];
  article: number;
}

const cache = new Map<string, Article[]>();

export function articles(language: string): Article[] {
  let list = cache.get(language);
  if (!list) cache.set(language, (list = loadArticles(language)));
  return list;
}

/** Odd articles tune, even articles are held out: no sentence is in both halves. */
export function splitOf(article: number): Split {
  return article % 2 === 1 ? 'tune' : 'holdout';
}

export function isCjk(language: string): boolean {
  return CJK.has(language);
}

/** Sentences from article `start` on, within one split, until `minChars` is reached. */
export function sentencesFrom(language: string, start: number, minChars: number, maxChars: number): string[] {
  const list = articles(language);
  const out: string[] = [];
  let chars = 0;
  for (let n = start; n <= 30 && chars < minChars; n += 2) {
    for (const sentence of list.find((a) => a.number === n)?.sentences ?? []) {
      if (chars >= minChars || (chars > 0 && chars + sentence.length > maxChars)) break;
      out.push(sentence);
      chars += sentence.length;
    }
  }
  return out;
}

/** A sentence as the last one of a reply: ends as sentences end, not on a list's comma. */
export function finished(sentence: string, language: string): string {
  const stop = FULL_STOP[language] ?? '.';
  const trimmed = sentence.replace(/[\s,;:，；、]+$/u, '');
  if (/[.!?。！？।]$/u.test(trimmed) || stop === '') return trimmed;
  return trimmed + stop;
}

export function joiner(language: string): string {
  return UNSPACED.has(language) && language !== 'th' ? '' : ' ';
}

export function joinSentences(sentences: readonly string[], language: string): string {
  return sentences.join(joiner(language));
}

/** Chars per reply: CJK says as much in about a third of the characters. */
export function lengthRange(language: string, rng: Random, long = false): [number, number] {
  const scale = isCjk(language) ? 0.4 : 1;
  const min = Math.round((long ? rng.int(320, 700) : rng.int(120, 900)) * (long && isCjk(language) ? 1 : scale));
  return [min, Math.round(min * 1.6) + 80];
}

/** A good reply starting at an article of the given split, in one of several chat shapes. */
export function goodReply(language: string, split: Split, rng: Random, range?: [number, number]): Reply {
  const article = rng.pick(articles(language).filter((a) => splitOf(a.number) === split)).number;
  const [min, max] = range ?? lengthRange(language, rng);
  const sentences = sentencesFrom(language, article, min, max).map((s) => s.trim());
  const last = sentences.length - 1;
  if (last >= 0) sentences[last] = finished(sentences[last] ?? '', language);
  const shape = rng.int(0, 5);
  const heading = articles(language).find((a) => a.number === article)?.heading ?? '';
  let text: string;
  if (shape === 3 && sentences.length >= 3) text = sentences.map((s) => `- ${finished(s, language)}`).join('\n');
  else if (shape === 4 && sentences.length >= 2) {
    const cut = Math.ceil(sentences.length / 2);
    text = `${joinSentences(sentences.slice(0, cut), language)}\n\n${joinSentences(sentences.slice(cut), language)}`;
  } else if (shape === 5 && heading) text = `**${heading}**\n\n${joinSentences(sentences, language)}`;
  else text = joinSentences(sentences, language);
  return { text, sentences, article };
}

/** Labels of a natural reply: every text check should pass. */
export function naturalLabels(overrides: Partial<Record<CheckName, VerdictKind | undefined>> = {}): Partial<Record<CheckName, VerdictKind>> {
  const labels: Partial<Record<CheckName, VerdictKind | undefined>> = {
    nonempty: 'pass', refusal: 'pass', language: 'pass', encoding: 'pass', repetition: 'pass', prefix: 'pass', ...overrides,
  };
  for (const key of Object.keys(labels) as CheckName[]) if (labels[key] === undefined) delete labels[key];
  return labels as Partial<Record<CheckName, VerdictKind>>;
}

export function charCount(text: string): number {
  return Array.from(text).length;
}
