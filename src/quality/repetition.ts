// `repetition`: a model stuck in a loop. Repeated 4-grams over most of the reply (words, or
// characters for Chinese, Japanese and Thai), a tail that repeats itself, one line or one
// sentence making up much of the reply. Thresholds from FINDINGS (0 false positives on
// ~1,400 clean replies) and kept where the corpus's tuning half put them.
import { GramSet } from './hash-table.js';
import { lowerCodeUnit, Script, scriptOf } from './language/index.js';
import type { Detector, Verdict } from './types.js';
import { fail, pass, quote } from './verdict.js';

const CHECK = 'repetition';
const MIN_TOKENS = 30;
const NGRAM_SHARE = 0.5;
const TAIL_MIN_CHARS = 40;
const TAIL_MIN_COPIES = 3;
const TAIL_MAX_PERIOD = 300;
const LINE_MIN_CHARS = 10;
const LINE_MIN_LINES = 5;
const LINE_SHARE = 0.3;
const SENTENCE_MIN_CHARS = 30;
const SENTENCE_MIN_COPIES = 3;
const SENTENCE_SHARE = 0.3;
const SENTENCE_GATE = 0.05;

const LETTER = /\p{L}/u;

export const repetition: Detector = (reply) => {
  const text = reply.text;
  const loop = tailLoop(text);
  if (loop) return loop;
  const ngrams = repeatedNgrams(text);
  if (ngrams.verdict) return ngrams.verdict;
  // A sentence of 30+ characters three times over, 30% of the reply, leaves well over 5% of
  // 4-grams repeated: below that there is no sentence loop to look for.
  return repeatedLines(text) ?? (ngrams.share >= SENTENCE_GATE ? repeatedSentences(text) : undefined) ?? pass(CHECK);
};

// Reused across calls: detectors are synchronous and never re-entered.
const seen = new GramSet();

/**
 * Share of 4-grams already seen earlier in the reply. Tokens are words, or single characters
 * in scripts written without spaces (Han, kana, Thai); each is hashed as it is read, and four
 * hashes fold into one number: no token strings are built.
 */
function repeatedNgrams(text: string): { share: number; verdict?: Verdict } {
  seen.clear();
  let tokens = 0;
  let repeats = 0;
  let a = 0, b = 0, c = 0;
  let word = 0;
  let inWord = false;
  const push = (token: number): void => {
    tokens++;
    if (tokens >= 4) {
      // Two 26-bit halves from differently seeded mixes: a 52-bit key, collisions negligible.
      const hi = mix(mix(mix(mix(0x9e3779b9, a), b), c), token) >>> 6;
      const lo = mix(mix(mix(mix(0x85ebca6b, token), c), b), a) >>> 6;
      if (!seen.add(hi * 0x4000000 + lo)) repeats++;
    }
    a = b; b = c; c = token;
  };
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const script = scriptOf(unit);
    if (script === Script.Han || script === Script.Kana || script === Script.Thai) {
      if (inWord) push(word);
      inWord = false;
      push(unit + 0x10000);
    } else if (script !== Script.None || (unit >= 0x30 && unit <= 0x39)) {
      const lower = lowerCodeUnit(unit);
      word = inWord ? mix(word, lower) : mix(0x27d4eb2f, lower);
      inWord = true;
    } else if (inWord) {
      push(word);
      inWord = false;
    }
  }
  if (inWord) push(word);
  const share = tokens > 3 ? repeats / (tokens - 3) : 0;
  if (tokens < MIN_TOKENS || share < NGRAM_SHARE) return { share };
  return { share, verdict: fail(CHECK, 'repeated_ngrams', { detail: 'most 4-grams of the reply occur more than once', evidence: { share: Math.round(share * 1000) / 1000, tokens } }) };
}

function mix(h: number, value: number): number {
  const m = Math.imul(h ^ value, 0x5bd1e995);
  return (m ^ (m >>> 15)) >>> 0;
}

/** The end of the reply repeating one stretch over and over (often until the token limit). */
function tailLoop(text: string) {
  const s = text.replace(/\s+/g, ' ').trimEnd();
  const n = s.length;
  for (let period = 1; period <= Math.min(TAIL_MAX_PERIOD, Math.floor(n / TAIL_MIN_COPIES)); period++) {
    let run = 0;
    while (run < n - period && s.charCodeAt(n - 1 - run) === s.charCodeAt(n - 1 - run - period)) run++;
    const looped = run + period;
    if (looped < TAIL_MIN_CHARS || looped < TAIL_MIN_COPIES * period) continue;
    const unit = s.slice(n - period);
    if (!LETTER.test(unit)) continue;
    return fail(CHECK, 'tail_loop', { detail: 'the reply ends repeating itself', evidence: { span: quote(unit.trim()), copies: Math.floor(looped / period) } });
  }
  return undefined;
}

function repeatedLines(text: string) {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length >= LINE_MIN_CHARS && LETTER.test(l));
  if (lines.length < LINE_MIN_LINES) return undefined;
  const [line, copies] = mostFrequent(lines);
  if (copies < 3 || copies < LINE_SHARE * lines.length) return undefined;
  return fail(CHECK, 'line_loop', { detail: 'one line makes up much of the reply', evidence: { span: quote(line), copies, lines: lines.length } });
}

function repeatedSentences(text: string) {
  const sentences = text.split(/(?<=[.!?。！？])\s*|\n+/).map((s) => s.trim()).filter((s) => s.length > 0);
  const long = sentences.filter((s) => s.length >= SENTENCE_MIN_CHARS);
  if (long.length < SENTENCE_MIN_COPIES) return undefined;
  const [sentence, copies] = mostFrequent(long);
  const total = sentences.reduce((sum, s) => sum + s.length, 0);
  if (copies < SENTENCE_MIN_COPIES || copies * sentence.length < SENTENCE_SHARE * total) return undefined;
  return fail(CHECK, 'sentence_loop', { detail: 'one sentence repeated again and again', evidence: { span: quote(sentence), copies } });
}

function mostFrequent(items: readonly string[]): [string, number] {
  const counts = new Map<string, number>();
  let best: [string, number] = ['', 0];
  for (const item of items) {
    const n = (counts.get(item) ?? 0) + 1;
    counts.set(item, n);
    if (n > best[1]) best = [item, n];
  }
  return best;
}
