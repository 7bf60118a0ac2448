// Scores a span of text against eld's 60 languages: eld's own scheme (words lowercased and
// read as UTF-8 bytes, 4-byte n-grams at a stride of 3, each distinct n-gram counted once),
// done in one pass without per-call regexes. Deterministic: same text, same scores.
import { isBmpLetter, lowerCodeUnit } from './script.js';
import { GramSet } from '../hash-table.js';
import { ngramModel, type NgramModel } from './ngram-model.js';

export interface LanguageScore {
  language: string;
  score: number;
}

export interface LanguageScores {
  /** Distinct n-grams seen; few n-grams means little evidence. */
  readonly ngrams: number;
  /** Best languages first (at most three), scores on eld's 0–1 scale. */
  readonly ranked: readonly LanguageScore[];
  /** The score of one language, 0 when it had no n-gram at all. */
  of(language: string): number;
}

const APOSTROPHES = new Set([0x27, 0x60, 0x2019]);
const MAX_WORD_BYTES = 70; // eld's cap on how much of one word is read
const SCALE = 25; // eld's hand-picked scale from mean n-gram score to 0–1
const SPACE = 0x20;
const DOTTED_CAPITAL_I = 0x130; // lowercases to two code units, i + U+0307

// Scratch space reused across calls: scoring is synchronous and never re-entered.
const seen = new GramSet();
const word = new Uint8Array(1024);
let raw = new Float64Array(0);

export function scoreText(text: string): LanguageScores {
  const model = ngramModel();
  if (raw.length !== model.languages.length) raw = new Float64Array(model.languages.length);
  raw.fill(0);
  seen.clear();
  let unpackable = 0;
  let length = 0; // bytes of the current word, as eld's key characters
  const put = (code: number): void => {
    if (length + 3 >= word.length) return;
    if (code < 0x80) {
      word[length++] = code;
    } else if (code < 0x800) {
      word[length++] = model.byteCode[0xc0 | (code >> 6)] ?? SPACE;
      word[length++] = model.byteCode[0x80 | (code & 0x3f)] ?? SPACE;
    } else {
      word[length++] = model.byteCode[0xe0 | (code >> 12)] ?? SPACE;
      word[length++] = model.byteCode[0x80 | ((code >> 6) & 0x3f)] ?? SPACE;
      word[length++] = model.byteCode[0x80 | (code & 0x3f)] ?? SPACE;
    }
  };
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : SPACE;
    const inWord = isBmpLetter(c) || (APOSTROPHES.has(c) && i + 1 < text.length && isBmpLetter(text.charCodeAt(i + 1)));
    if (inWord) {
      if (c === DOTTED_CAPITAL_I) {
        put(0x69);
        put(0x307);
      } else {
        put(lowerCodeUnit(c));
      }
    } else if (length > 0) {
      unpackable += addWord(model, length);
      length = 0;
    }
  }
  return rank(model, raw, seen.size + unpackable);
}

/** eld's n-grams of one word: 4 bytes at a stride of 3, a space marking the word's edges. Returns n-grams too long to pack. */
function addWord(model: NgramModel, length: number): number {
  const capped = Math.min(length, MAX_WORD_BYTES);
  let j = 0;
  for (; j + 4 < capped; j += 3) addNgram(model, pack(j === 0, j, j + 4, false));
  const from = capped !== 3 ? Math.max(0, capped - 4) : 0;
  // Past eld's cap its last n-gram runs to the end of the word: too long to be in the database.
  if (length - from > 5) return 1;
  addNgram(model, pack(j === 0, from, length, true));
  return 0;
}

function pack(leadingSpace: boolean, from: number, to: number, trailingSpace: boolean): number {
  let key = leadingSpace ? SPACE : 0;
  for (let k = from; k < to; k++) key = key * 256 + (word[k] ?? SPACE);
  return trailingSpace ? key * 256 + SPACE : key;
}

function addNgram(model: NgramModel, key: number): void {
  if (!seen.add(key)) return;
  const at = model.index.get(key);
  if (at < 0) return;
  const end = model.starts[at + 1] ?? 0;
  for (let k = model.starts[at] ?? 0; k < end; k++) {
    const language = model.entryLanguage[k] ?? 0;
    raw[language] = (raw[language] ?? 0) + (model.entryScore[k] ?? 0);
  }
}

function rank(model: NgramModel, totals: Float64Array, ngrams: number): LanguageScores {
  const scores = new Float64Array(totals.length);
  const top: LanguageScore[] = [];
  for (let i = 0; i < totals.length; i++) {
    const total = totals[i] ?? 0;
    if (total <= 0) continue;
    const mean = total / ngrams;
    const score = mean / (mean + SCALE);
    scores[i] = score;
    insertTop(top, { language: model.languages[i] ?? '', score });
  }
  return {
    ngrams,
    ranked: top,
    of(language: string): number {
      const i = model.languages.indexOf(language);
      return i < 0 ? 0 : (scores[i] ?? 0);
    },
  };
}

function insertTop(top: LanguageScore[], entry: LanguageScore): void {
  let i = top.length;
  while (i > 0 && (top[i - 1]?.score ?? 0) < entry.score) i--;
  if (i >= 3) return;
  top.splice(i, 0, entry);
  if (top.length > 3) top.pop();
}
