// Structured output, fixed facts and minimum length: JSON built from UDHR articles and
// broken the ways providers break it; capital-city answers in 17 languages, right and wrong.
import type { CorpusCase } from '../../bench/quality-eval/case.js';
import { articles, charCount, goodReply, LANGUAGES, splitOf, type Split } from './replies.js';
import { seeded, seedOf, type Random } from './rng.js';

const ARTICLE_SCHEMA = {
  type: 'object',
  required: ['article', 'language', 'summary', 'keywords'],
  properties: {
    article: { type: 'integer', minimum: 1, maximum: 30 },
    language: { type: 'string', minLength: 2, maxLength: 2 },
    summary: { type: 'string', minLength: 1 },
    keywords: { type: 'array', items: { type: 'string' }, minItems: 1 },
  },
  additionalProperties: false,
} as const;

/** "Here is the JSON:" as a chatty model would say it, per language. */
const LEAD_IN: Readonly<Record<string, string>> = {
  en: 'Sure! Here is the JSON:', zh: '好的，这是 JSON：', ja: 'はい、JSON はこちらです：', ko: '네, JSON은 다음과 같습니다:', es: '¡Claro! Aquí está el JSON:',
  pt: 'Claro! Aqui está o JSON:', fr: 'Bien sûr ! Voici le JSON :', de: 'Klar! Hier ist das JSON:', it: 'Certo! Ecco il JSON:', ru: 'Конечно! Вот JSON:',
  ar: 'بالتأكيد! إليك JSON:', hi: 'ज़रूर! यह रहा JSON:', id: 'Tentu! Ini JSON-nya:', vi: 'Chắc chắn rồi! Đây là JSON:', th: 'ได้เลย นี่คือ JSON:',
  tr: 'Tabii! İşte JSON:', pl: 'Jasne! Oto JSON:',
};

type Fault = 'good' | 'pretty' | 'fence' | 'prose' | 'trailing' | 'truncated' | 'missing' | 'type' | 'extra' | 'single-quotes' | 'trailing-comma' | 'no-json' | 'lenient-fence' | 'lenient-prose';
const FAULTS: readonly Fault[] = ['good', 'pretty', 'fence', 'prose', 'trailing', 'truncated', 'missing', 'type', 'extra', 'single-quotes', 'trailing-comma', 'no-json', 'lenient-fence', 'lenient-prose'];
const PASSING = new Set<Fault>(['good', 'pretty', 'lenient-fence', 'lenient-prose']);

export function schemaCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const language of LANGUAGES) {
    const rng = seeded(seedOf(`schema:${language}`));
    FAULTS.forEach((fault, i) => {
      const split: Split = (i + language.length) % 2 === 0 ? 'tune' : 'holdout';
      const article = rng.pick(articles(language).filter((a) => splitOf(a.number) === split));
      const value = {
        article: article.number,
        language,
        summary: article.sentences[0] ?? '',
        keywords: (article.sentences[0] ?? '').split(/[\s,，、。]+/).filter((w) => w.length > 1).slice(0, 3),
      };
      const text = render(value, fault, language, rng);
      cases.push({
        id: `schema-${fault}-${language}`,
        labels: { schema: PASSING.has(fault) ? 'pass' : 'fail', nonempty: 'pass', encoding: 'pass' },
        reply: { text, finishReason: 'stop' },
        expectation: { schema: ARTICLE_SCHEMA, strictJson: !fault.startsWith('lenient') },
        transform: `schema:${fault}`,
        language,
        split,
        meta: { chars: charCount(text) },
      });
    });
  }
  return cases;
}

function render(value: { article: number; language: string; summary: string; keywords: string[] }, fault: Fault, language: string, rng: Random): string {
  const json = JSON.stringify(value);
  const pretty = JSON.stringify(value, null, 2);
  const lead = LEAD_IN[language] ?? LEAD_IN.en ?? '';
  switch (fault) {
    case 'good': return json;
    case 'pretty': return `${pretty}\n`;
    case 'fence': case 'lenient-fence': return `\`\`\`json\n${pretty}\n\`\`\``;
    case 'prose': case 'lenient-prose': return `${lead} ${json}`;
    case 'trailing': return `${json}\n\n${lead.replace(/[:：]\s*$/, '.')}`;
    case 'truncated': return json.slice(0, Math.floor(json.length * (0.3 + rng.next() * 0.6)));
    case 'missing': {
      const { summary: _summary, ...rest } = value;
      return JSON.stringify(rest);
    }
    case 'type': return JSON.stringify({ ...value, article: String(value.article) });
    case 'extra': return JSON.stringify({ ...value, confidence: 0.9 });
    case 'single-quotes': return json.replace(/"/g, "'");
    case 'trailing-comma': return pretty.replace(/\n\s*\]/, ',\n  ]').replace(/\n}$/, ',\n}');
    case 'no-json': return value.summary;
  }
}

/** "What is the capital of France?" — the accepted answers, native and English. */
const PARIS: Readonly<Record<string, string>> = {
  en: 'Paris', zh: '巴黎', ja: 'パリ', ko: '파리', es: 'París', pt: 'Paris', fr: 'Paris', de: 'Paris', it: 'Parigi', ru: 'Париж',
  ar: 'باريس', hi: 'पेरिस', id: 'Paris', vi: 'Paris', th: 'ปารีส', tr: 'Paris', pl: 'Paryż',
};
const LYON: Readonly<Record<string, string>> = {
  en: 'Lyon', zh: '里昂', ja: 'リヨン', ko: '리옹', es: 'Lyon', pt: 'Lyon', fr: 'Lyon', de: 'Lyon', it: 'Lione', ru: 'Лион',
  ar: 'ليون', hi: 'ल्यों', id: 'Lyon', vi: 'Lyon', th: 'ลียง', tr: 'Lyon', pl: 'Lyon',
};

export function factCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const language of LANGUAGES) {
    const answer = PARIS[language] ?? 'Paris';
    const expected = [...new Set([answer, 'Paris'])];
    const variants: Array<[string, string, 'pass' | 'fail']> = [
      ['exact', answer, 'pass'],
      ['punctuated', `${answer}${language === 'zh' || language === 'ja' ? '。' : '.'}`, 'pass'],
      ['markup', `**${answer}**\n`, 'pass'],
      ['wide', `  ${answer.normalize('NFKC').replace(/[A-Za-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))}　`, 'pass'],
      ['upper', answer.toUpperCase(), 'pass'],
      ['english', 'Paris', 'pass'],
      ['wrong', LYON[language] ?? 'Lyon', 'fail'],
      ['sentence', `${answer} — ${LYON[language] ?? 'Lyon'}?`, 'fail'],
      ['empty', '', 'fail'],
    ];
    variants.forEach(([name, text, label], i) => {
      cases.push({
        id: `fact-${name}-${language}`,
        labels: { fact: label },
        reply: { text, finishReason: 'stop' },
        expectation: { expected },
        transform: `fact:${name}`,
        language,
        split: i % 2 === 0 ? 'tune' : 'holdout',
        meta: { chars: charCount(text) },
      });
    });
  }
  return cases;
}

export function minlenCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const language of LANGUAGES) {
    const rng = seeded(seedOf(`minlen:${language}`));
    for (let i = 0; i < 4; i++) {
      const split: Split = (i + LANGUAGES.indexOf(language)) % 2 === 0 ? 'tune' : 'holdout';
      const reply = goodReply(language, split, rng, [30, 200]);
      const content = reply.text.replace(/\s+/g, ' ').replace(/[*_#`>]/g, '').trim();
      const length = charCount(content);
      const over = i < 2;
      // Well clear of the boundary: markup counting is the detector's business, not the label's.
      const minLength = over ? Math.max(1, Math.floor(length * 0.8) - rng.int(0, 10)) : Math.ceil(length * 1.2) + rng.int(5, 20);
      cases.push({
        id: `minlen-${language}-${i}`,
        labels: { minlen: over ? 'pass' : 'fail' },
        reply: { text: `${reply.text}\n\n`, finishReason: 'stop' },
        expectation: { minLength },
        transform: over ? 'minlen:enough' : 'minlen:short',
        language,
        split: splitOf(reply.article),
        meta: { chars: length },
      });
    }
  }
  return cases;
}
