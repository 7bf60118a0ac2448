// A few fixed fact questions, asked in several languages. A matching prompt gets just the
// answer (the canary's "fixed fact with normalised exact match"); `wrongFact` gets a
// plausible wrong one.
import type { Language } from './language.js';

export interface Fact {
  id: string;
  question: RegExp;
  /** The answer by language; `default` for the rest (Latin script). */
  answer: Partial<Record<Language, string>> & { default: string };
  wrong: Partial<Record<Language, string>> & { default: string };
  /** For the JSON reply to a capital question: `{"city", "country"}`. */
  country?: string;
}

export const FACTS: readonly Fact[] = [
  {
    id: 'capital-france',
    question:
      /capital\s+(?:city\s+)?(?:of|de|da|di|do)\s+(?:la\s+)?(?:france|francia|frança|frankreich)|hauptstadt\s+(?:von\s+)?frankreich|capitale\s+(?:de\s+la|della)\s+francia?|法国的?首都|法國的?首都|フランスの首都|프랑스의?\s*수도|столица\s+франции|عاصمة\s+فرنسا|फ़?्रांस\s+की\s+राजधानी|ibu\s*kota\s+prancis|thủ\s+đô\s+(?:của\s+)?pháp|เมืองหลวงของฝรั่งเศส|fransa'?nın\s+başkenti|stolica\s+francji/i,
    answer: { default: 'Paris', zh: '巴黎', ja: 'パリ', ko: '파리', ru: 'Париж', ar: 'باريس', hi: 'पेरिस', th: 'ปารีส' },
    wrong: { default: 'Lyon', zh: '里昂', ja: 'リヨン', ko: '리옹', ru: 'Лион', ar: 'ليون', hi: 'ल्योन', th: 'ลียง' },
    country: 'France',
  },
  {
    id: 'capital-japan',
    question:
      /capital\s+(?:city\s+)?(?:of|de|da|di|do)\s+(?:o\s+)?(?:japan|japón|japão|giappone|japon)|hauptstadt\s+(?:von\s+)?japan|日本的?首都|日本の首都|일본의?\s*수도|столица\s+японии/i,
    answer: { default: 'Tokyo', zh: '东京', ja: '東京', ko: '도쿄', ru: 'Токио' },
    wrong: { default: 'Osaka', zh: '大阪', ja: '大阪', ko: '오사카', ru: 'Осака' },
    country: 'Japan',
  },
  {
    id: 'capital-germany',
    question:
      /capital\s+(?:city\s+)?(?:of|de|da|di|do)\s+(?:la\s+|a\s+|l')?(?:germany|alemania|alemanha|germania|allemagne)|hauptstadt\s+(?:von\s+)?deutschland|德国的?首都|ドイツの首都|독일의?\s*수도|столица\s+германии/i,
    answer: { default: 'Berlin', zh: '柏林', ja: 'ベルリン', ko: '베를린', ru: 'Берлин', es: 'Berlín', pt: 'Berlim', it: 'Berlino' },
    wrong: { default: 'Munich', zh: '慕尼黑', ja: 'ミュンヘン', ko: '뮌헨', ru: 'Мюнхен', de: 'München', es: 'Múnich', pt: 'Munique', it: 'Monaco di Baviera' },
    country: 'Germany',
  },
  {
    id: 'two-plus-two',
    question: /(?:^|[^\d])2\s*\+\s*2(?:[^\d]|$)|two\s+plus\s+two|二加二|dos\s+más\s+dos|dois\s+mais\s+dois|deux\s+plus\s+deux|zwei\s+plus\s+zwei/i,
    answer: { default: '4' },
    wrong: { default: '5' },
  },
  {
    id: 'largest-planet',
    question: /largest\s+planet|biggest\s+planet|最大的行星|一番大きい惑星|最も大きい惑星|가장\s*큰\s*행성|planeta\s+más\s+grande|maior\s+planeta|plus\s+grande\s+planète|größte\s+planet|самая\s+большая\s+планета/i,
    answer: { default: 'Jupiter', zh: '木星', ja: '木星', ko: '목성', ru: 'Юпитер', es: 'Júpiter', pt: 'Júpiter', it: 'Giove' },
    wrong: { default: 'Saturn', zh: '土星', ja: '土星', ko: '토성', ru: 'Сатурн', es: 'Saturno', pt: 'Saturno', it: 'Saturno', fr: 'Saturne' },
  },
  {
    id: 'gold-symbol',
    question: /chemical\s+symbol\s+(?:for|of)\s+gold|金的化学符号|金の元素記号|símbolo\s+químico\s+del?\s+(?:oro|ouro)/i,
    answer: { default: 'Au' },
    wrong: { default: 'Ag' },
  },
];

export function matchFact(prompt: string): Fact | undefined {
  return FACTS.find((fact) => fact.question.test(prompt));
}

export function factAnswer(fact: Fact, language: Language, wrong: boolean): string {
  const table = wrong ? fact.wrong : fact.answer;
  return table[language] ?? table.default;
}
