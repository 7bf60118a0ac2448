// `repetition`: a model stuck in a loop. Repeated 4-grams over most of the reply (words, or
// characters for Chinese, Japanese and Thai), a tail that repeats itself, one line or one
// sentence making up much of the reply. Thresholds from FINDINGS (0 false positives on
// ~1,400 clean replies) and kept where the corpus's tuning half put them.
import type { Detector } from './types.js';
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

// Scripts written without spaces: each character is a token; elsewhere a word is.
const TOKEN = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}]|[\p{L}\p{M}\p{N}]+/gu;
const LETTER = /\p{L}/u;

export const repetition: Detector = (reply) => {
  const text = reply.text;
  return tailLoop(text) ?? repeatedNgrams(text) ?? repeatedLines(text) ?? repeatedSentences(text) ?? pass(CHECK);
};

function repeatedNgrams(text: string) {
  const tokens = text.toLowerCase().match(TOKEN) ?? [];
  if (tokens.length < MIN_TOKENS) return undefined;
  const ids = new Map<string, number>();
  const seen = new Set<number | string>();
  let repeats = 0;
  let a = 0, b = 0, c = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    let id = ids.get(token);
    if (id === undefined) ids.set(token, (id = ids.size));
    if (i >= 3) {
      // Four token ids packed in one number while they fit in 13 bits each (< 2^53): no strings.
      const key = id < 8192 && a < 8192 && b < 8192 && c < 8192 ? ((a * 8192 + b) * 8192 + c) * 8192 + id : `${a},${b},${c},${id}`;
      if (seen.has(key)) repeats++;
      else seen.add(key);
    }
    a = b; b = c; c = id;
  }
  const share = repeats / (tokens.length - 3);
  if (share < NGRAM_SHARE) return undefined;
  return fail(CHECK, 'repeated_ngrams', { detail: 'most 4-grams of the reply occur more than once', evidence: { share: Math.round(share * 1000) / 1000, tokens: tokens.length } });
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
