// eld 2.1's "medium" n-gram database (60 languages), loaded once, at first use or warmUp().
//
// Why the database and not eld.detect(): eld costs ~35 µs per call whatever the length (a
// large Unicode regex and a result object per call), and the language check scores every
// sentence of a reply separately; at eight sentences that alone is over the 200 µs a reply
// may cost. Scoring with the same database and the same n-gram scheme in one pass over the
// text gives eld's answers (test/quality/ngram-parity.test.ts holds the two together) at a
// fraction of the cost. The package is pinned to 2.1.0 because this reads its data files.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { QualityError } from '../errors.js';
import { GramIndex, packGram } from '../hash-table.js';

export interface NgramModel {
  /** Language codes by index, eld's `ms` already renamed `id` (eld has no Indonesian of its own). */
  readonly languages: readonly string[];
  /** Packed n-gram (see packGram) → i; the entries of n-gram i are `starts[i]` .. `starts[i + 1]`. */
  readonly index: GramIndex;
  readonly starts: Uint32Array;
  readonly entryLanguage: Uint8Array;
  readonly entryScore: Float64Array;
  /** UTF-8 byte → the character code eld writes for it in n-gram keys (ASCII stays itself). */
  readonly byteCode: Uint8Array;
}

interface EldNgramData {
  type: string;
  languages: Record<string, string>;
  ngrams: Record<string, Record<string, number>>;
}

// eld subtracts this from every stored score to keep its files small; it adds it back when scoring.
const BASE_NGRAM_SCORE = 53;

let model: NgramModel | undefined;

export function ngramModel(): NgramModel {
  model ??= loadModel();
  return model;
}

function loadModel(): NgramModel {
  let data: EldNgramData;
  let byteChar: string[];
  try {
    // eld ships ESM only and exports no data path: resolve its public entry, then its files
    // beside it, and load them synchronously (require of ESM, Node ≥ 20.19) so that a
    // detector can stay a plain synchronous function.
    const entry = import.meta.resolve('eld/medium');
    const require = createRequire(import.meta.url);
    data = (require(fileURLToPath(new URL('../ngrams/medium.js', entry))) as { ngramsData: EldNgramData }).ngramsData;
    byteChar = (require(fileURLToPath(new URL('../dictionary.js', entry))) as { dictionary: string[] }).dictionary;
  } catch (e) {
    throw new QualityError('language_model_unavailable', `cannot load eld's n-gram data: ${(e as Error).message}`);
  }
  if (!data?.ngrams || !data.languages || byteChar?.length !== 256) {
    throw new QualityError('language_model_unavailable', 'eld n-gram data has an unexpected shape (is eld 2.1.0 installed?)');
  }
  return compile(data, byteChar);
}

function compile(data: EldNgramData, byteChar: string[]): NgramModel {
  const languages: string[] = [];
  for (const [i, code] of Object.entries(data.languages)) languages[Number(i)] = code === 'ms' ? 'id' : code;
  const keys = Object.keys(data.ngrams);
  const index = new GramIndex(keys.length);
  let total = 0;
  for (const key of keys) total += Object.keys(data.ngrams[key] ?? {}).length;
  const starts = new Uint32Array(keys.length + 1);
  const entryLanguage = new Uint8Array(total);
  const entryScore = new Float64Array(total);
  let at = 0;
  keys.forEach((key, i) => {
    const packed = packGram(key);
    if (!Number.isNaN(packed)) index.set(packed, i);
    starts[i] = at;
    for (const [language, score] of Object.entries(data.ngrams[key] ?? {})) {
      entryLanguage[at] = Number(language);
      entryScore[at] = score + BASE_NGRAM_SCORE;
      at++;
    }
  });
  starts[keys.length] = at;
  const byteCode = new Uint8Array(256);
  for (let b = 0; b < 256; b++) byteCode[b] = b < 0x80 ? b : (byteChar[b] ?? ' ').charCodeAt(0);
  return { languages, index, starts, entryLanguage, entryScore, byteCode };
}
