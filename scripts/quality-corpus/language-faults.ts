// Language faults, seeded: foreign sentences spliced into a reply (sustained mixing), a whole
// reply in another language, and replies too short to judge (the right answer is to abstain).
import type { CorpusCase } from '../../bench/quality-eval/case.js';
import { charCount, finished, goodReply, joiner, LANGUAGES, naturalLabels, sentencesFrom, splitOf, type Split } from './replies.js';
import { seeded, seedOf, type Random } from './rng.js';

/** The language a reply most plausibly slides into (the seed's pt→es, and zh↔ja, en→zh). */
const NEIGHBOUR: Readonly<Record<string, string>> = {
  pt: 'es', es: 'pt', zh: 'ja', ja: 'zh', en: 'zh', fr: 'it', it: 'es', de: 'en', ko: 'en', ru: 'en', ar: 'en', hi: 'en', id: 'en', vi: 'en', th: 'en', tr: 'en', pl: 'en',
};

export function languageCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const language of LANGUAGES) {
    const rng = seeded(seedOf(`language:${language}`));
    const heavy = language === 'pt' || language === 'es' || language === 'zh' || language === 'ja';
    const splices = heavy ? 32 : 10;
    for (let i = 0; i < splices; i++) {
      const other = i % 2 === 0 || heavy ? (NEIGHBOUR[language] ?? 'en') : rng.pick(LANGUAGES.filter((l) => l !== language));
      const c = splice(language, other, i % 2 === 0 ? 'tune' : 'holdout', rng, i % 3 !== 2);
      if (c) cases.push({ ...c, id: `language-splice-${language}-${other}-${i}` });
    }
    for (let i = 0; i < 4; i++) {
      const other = i < 2 ? (NEIGHBOUR[language] ?? 'en') : rng.pick(LANGUAGES.filter((l) => l !== language));
      const reply = goodReply(other, i % 2 === 0 ? 'tune' : 'holdout', rng);
      cases.push({
        id: `language-switch-${language}-${other}-${i}`,
        labels: naturalLabels({ language: 'fail' }),
        reply: { text: reply.text, finishReason: 'stop' },
        expectation: { language },
        transform: `switch:${other}`,
        language,
        split: splitOf(reply.article),
        meta: { chars: charCount(reply.text), foreignShare: 1, pair: `${language}/${other}` },
      });
    }
    for (let i = 0; i < 4; i++) cases.push(short(language, i, rng));
  }
  return cases;
}

/** A reply in `language` with sentences of `other` put in among its own, from the same articles. */
function splice(language: string, other: string, split: Split, rng: Random, long: boolean): Omit<CorpusCase, 'id'> | undefined {
  const base = goodReply(language, split, rng, long ? [rng.int(330, 600), 900] : [rng.int(150, 290), 320]);
  const own = [...base.sentences];
  if (own.length < 2) return undefined;
  const pool = sentencesFrom(other, base.article, 2000, 4000);
  const target = 0.25 + rng.next() * 0.3;
  const ownChars = own.reduce((n, s) => n + charCount(s), 0);
  const mixed = [...own];
  let foreignChars = 0;
  let inserted = 0;
  while (pool.length > 0 && (foreignChars / (ownChars + foreignChars) < target || inserted < 2)) {
    const sentence = finished(pool.splice(rng.int(0, Math.min(2, pool.length - 1)), 1)[0] ?? '', other);
    mixed.splice(rng.int(1, mixed.length), 0, sentence);
    foreignChars += charCount(sentence);
    inserted++;
    if (inserted >= 2 && foreignChars / (ownChars + foreignChars) > 0.6) break;
  }
  if (inserted === 0) return undefined;
  const last = mixed.length - 1;
  mixed[last] = finished(mixed[last] ?? '', mixed[last] === own[own.length - 1] ? language : other);
  const separator = joiner(language) === '' && joiner(other) === '' ? '' : ' ';
  const text = mixed.join(separator);
  return {
    labels: naturalLabels({ language: 'fail' }),
    reply: { text, finishReason: 'stop' },
    expectation: { language },
    transform: `splice:${other}`,
    language,
    split: splitOf(base.article),
    meta: { chars: charCount(text), foreignShare: Math.round((foreignChars / (ownChars + foreignChars)) * 100) / 100, pair: `${language}/${other}` },
  };
}

/** One to three words: too little to say which language it is. */
function short(language: string, i: number, rng: Random): CorpusCase {
  const reply = goodReply(language, i % 2 === 0 ? 'tune' : 'holdout', rng, [20, 200]);
  const first = reply.sentences[0] ?? '';
  const unspaced = language === 'zh' || language === 'ja' || language === 'th';
  const text = unspaced ? finished(Array.from(first).slice(0, rng.int(2, 5)).join(''), language) : finished(first.split(' ').slice(0, rng.int(1, 3)).join(' '), language);
  return {
    id: `language-short-${language}-${i}`,
    labels: naturalLabels({ language: 'inconclusive' }),
    reply: { text, finishReason: 'stop' },
    expectation: { language },
    transform: 'short',
    language,
    split: splitOf(reply.article),
    meta: { chars: charCount(text) },
  };
}
