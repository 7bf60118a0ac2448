// Seeded damage to good replies: mojibake, U+FFFD, control characters, tokenizer residue;
// loops; stray starts; empty replies; provider filtering and replies stopped half-way. Plus
// the good replies themselves, which every text check must pass.
import type { CorpusCase } from '../../bench/quality-eval/case.js';
import { charCount, goodReply, isCjk, LANGUAGES, naturalLabels, splitOf, type Reply, type Split } from './replies.js';
import { seeded, seedOf, type Random } from './rng.js';

type Make = (language: string, reply: Reply, rng: Random) => Omit<CorpusCase, 'id' | 'language' | 'split'> | undefined;

export function textCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const families: Array<[string, number, Make]> = [
    ['good', 12, good],
    ['mojibake', 3, mojibake],
    ['mojibake-word', 1, mojibakeWord],
    ['fffd', 1, replacement],
    ['control', 1, control],
    ['residue', 1, residue],
    ['tail-loop', 2, tailLoop],
    ['phrase-loop', 1, phraseLoop],
    ['line-loop', 1, lineLoop],
    ['stutter', 1, stutter],
    ['prefix', 5, strayPrefix],
    ['empty', 2, empty],
    ['cut-off', 1, cutOff],
    ['content-filter', 1, contentFilter],
    ['stopped', 2, stopped],
  ];
  for (const language of LANGUAGES) {
    for (const [family, count, make] of families) {
      const rng = seeded(seedOf(`${family}:${language}`));
      for (let i = 0; i < count; i++) {
        // Alternate halves across languages too, so one-per-language families fill both.
        const split: Split = (i + LANGUAGES.indexOf(language)) % 2 === 0 ? 'tune' : 'holdout';
        const reply = goodReply(language, split, rng);
        const made = make(language, reply, rng);
        if (made) cases.push({ ...made, id: `${family}-${language}-${i}`, language, split: splitOf(reply.article) });
      }
    }
  }
  return cases;
}

const expect = (language: string) => ({ language });
const meta = (text: string) => ({ chars: charCount(text) });

const good: Make = (language, reply) => ({
  labels: naturalLabels(),
  reply: { text: reply.text, finishReason: 'stop' },
  expectation: expect(language),
  transform: 'good',
  meta: meta(reply.text),
});

// ── encoding ────────────────────────────────────────────────────────────────────────────
const CP1252_HIGH = '€\uFFFD‚ƒ„…†‡ˆ‰Š‹Œ\uFFFDŽ\uFFFD\uFFFD‘’“”•–—˜™š›œ\uFFFDžŸ';

/** UTF-8 bytes read back as Windows-1252: "café" → "cafÃ©", "’" → "â€™", "文" → "æ–‡". */
function misdecode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) out += byte >= 0x80 && byte < 0xa0 ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return out;
}

/** Plain ASCII survives misdecoding: give it the typographic punctuation editors add first. */
function typographic(text: string): string {
  const smart = text.replace(/'/g, '’').replace(/, /, ' — ');
  return smart === text ? `${text} — ` : smart;
}

// Garbled text says nothing about loops or language: only the checks it cannot fool are labelled.
const encodingLabels = () => naturalLabels({ encoding: 'fail', language: undefined, repetition: undefined });

const mojibake: Make = (language, reply, rng) => {
  const [head, ...rest] = reply.sentences;
  if (!head || rest.length === 0) return undefined;
  const span = rest.join(isCjk(language) ? '' : ' ');
  const damaged = misdecode(/[^\x00-\x7f]/.test(span) ? span : typographic(span));
  const text = `${head}${isCjk(language) ? '' : ' '}${damaged}`;
  return { labels: encodingLabels(), reply: { text, finishReason: rng.chance(0.5) ? 'stop' : 'length' }, expectation: expect(language), transform: 'mojibake', meta: meta(text) };
};

const mojibakeWord: Make = (language, reply) => {
  const words = reply.text.split(' ');
  const i = words.findIndex((w, k) => k > 0 && /[^\x00-\x7f]/.test(w));
  const target = i > 0 ? i : Math.min(1, words.length - 1);
  words[target] = misdecode(i > 0 ? (words[target] ?? '') : typographic(words[target] ?? ''));
  const text = words.join(' ');
  return { labels: encodingLabels(), reply: { text, finishReason: 'stop' }, expectation: expect(language), transform: 'mojibake-word', meta: meta(text) };
};

function insertAt(text: string, rng: Random, insert: () => string, times: number): string {
  const chars = Array.from(text);
  for (let k = 0; k < times; k++) chars.splice(rng.int(1, chars.length - 1), 1, insert());
  return chars.join('');
}

const replacement: Make = (language, reply, rng) => {
  const text = insertAt(reply.text, rng, () => '\uFFFD', rng.int(1, 3));
  return { labels: encodingLabels(), reply: { text, finishReason: 'stop' }, expectation: expect(language), transform: 'fffd', meta: meta(text) };
};

const control: Make = (language, reply, rng) => {
  const pool = ['\u0000', '\u0007', '\u001B', '\u0008', '\u0085', '\u009C', '\u000C', '\u007F'];
  const chars = Array.from(reply.text);
  chars.splice(rng.int(1, chars.length - 1), 0, rng.pick(pool));
  const text = chars.join('');
  return { labels: encodingLabels(), reply: { text, finishReason: 'stop' }, expectation: expect(language), transform: 'control', meta: meta(text) };
};

const residue: Make = (language, reply, rng) => {
  let text: string;
  if (language === 'zh' || language === 'ja') text = `${reply.text}锟斤拷锟斤拷`;
  else if (language === 'th') text = insertAt(reply.text, rng, () => '\uFFFD', 1);
  else {
    const marker = rng.chance(0.5) ? 'Ġ' : '▁';
    const [head, ...rest] = reply.sentences;
    text = [head, ...rest.map((s) => s.replace(/ /g, marker))].join(' ');
    if (!text.includes(marker)) text = `${reply.text} <0xE6><0x96><0x87>`;
  }
  return { labels: encodingLabels(), reply: { text, finishReason: 'stop' }, expectation: expect(language), transform: 'residue', meta: meta(text) };
};

// ── repetition ──────────────────────────────────────────────────────────────────────────
const loopLabels = () => naturalLabels({ repetition: 'fail' });

const tailLoop: Make = (language, reply, rng) => {
  const last = reply.sentences[reply.sentences.length - 1] ?? '';
  const sep = isCjk(language) ? '' : ' ';
  const copies = rng.int(3, 10);
  let text = reply.text + (sep + last).repeat(copies);
  const cut = rng.chance(0.5);
  if (cut) text = text.slice(0, text.length - rng.int(1, Math.max(1, Math.floor(last.length / 2))));
  return { labels: loopLabels(), reply: { text, finishReason: cut ? 'length' : 'stop' }, expectation: expect(language), transform: 'tail-loop', meta: meta(text) };
};

const phraseLoop: Make = (language, reply, rng) => {
  const last = reply.sentences[reply.sentences.length - 1] ?? '';
  const unit = isCjk(language) || language === 'th' ? Array.from(last).slice(0, rng.int(3, 8)).join('') : `${last.split(' ').slice(0, rng.int(2, 4)).join(' ')} `;
  const text = reply.text + (isCjk(language) ? '' : ' ') + unit.repeat(Math.ceil(200 / Math.max(1, unit.length)));
  return { labels: loopLabels(), reply: { text, finishReason: 'length' }, expectation: expect(language), transform: 'phrase-loop', meta: meta(text) };
};

const lineLoop: Make = (language, reply, rng) => {
  const lines = reply.sentences.slice(0, 3).map((s) => `- ${s}`);
  const looped = lines[rng.int(0, lines.length - 1)] ?? '';
  const text = [...lines, ...Array.from({ length: rng.int(4, 7) }, () => looped)].join('\n');
  return { labels: loopLabels(), reply: { text, finishReason: 'stop' }, expectation: expect(language), transform: 'line-loop', meta: meta(text) };
};

const stutter: Make = (language, reply) => {
  const sep = isCjk(language) ? '' : ' ';
  const text = reply.sentences.map((s) => [s, s, s].join(sep)).join(sep);
  return { labels: loopLabels(), reply: { text, finishReason: 'stop' }, expectation: expect(language), transform: 'stutter', meta: meta(text) };
};

// ── prefix ──────────────────────────────────────────────────────────────────────────────
const TEMPLATE = ['<|im_start|>', '<|im_start|>assistant\n', '</s>', '<s>', '[INST]', '[/INST] ', 'assistant:', 'Assistant: ', '<|assistant|>', '<|eot_id|>', '<end_of_turn>'];
const PUNCTUATION = ['.', ',', ' ,', ')', ']', '}', '」', '』', '》', '）', ':', ';', '。', '、', '，', '?', '!', '\\n'];
const MARKERS = ['*', '**', '_', '`', ':**', '```\n'];
const QUOTES = ['"', '“', '「', '(', '['];
const FRAGMENTS = ['ktor', 'ilent', 'ategor', 'ener', 'ction', 'uD', 'ingt', 'ress', 'ptr', 'owa'];

const strayPrefix: Make = (language, reply, rng) => {
  const kind = rng.pick(['template', 'punctuation', 'marker', 'quote', 'fragment'] as const);
  let start: string;
  if (kind === 'template') start = rng.pick(TEMPLATE);
  else if (kind === 'punctuation') start = rng.pick(PUNCTUATION);
  else if (kind === 'marker') start = rng.pick(MARKERS);
  else if (kind === 'quote') start = rng.pick(QUOTES);
  else start = `${rng.pick(FRAGMENTS)}${/^[A-Za-z]/.test(reply.text) || rng.chance(0.5) ? ' ' : ''}`;
  // An opening quote or marker only pollutes when the reply never closes it.
  if ((kind === 'quote' || kind === 'marker') && /["“”「」()[\]*_`]/.test(reply.text)) start = rng.pick(PUNCTUATION);
  const body = reply.text.startsWith('**') ? reply.text.replace(/^\*\*[^*]*\*\*\n\n/, '') : reply.text;
  const text = start + body;
  return { labels: naturalLabels({ prefix: 'fail' }), reply: { text, finishReason: 'stop' }, expectation: expect(language), transform: `prefix:${kind}`, meta: meta(text) };
};

// ── nonempty ────────────────────────────────────────────────────────────────────────────
const EMPTIES = ['', ' ', '\n\n', '\t \n ', '**', '```\n```', '<p></p>', '...', '—', '# ', '* * *', '<|im_end|>'];

const empty: Make = (language, _reply, rng) => {
  const text = rng.pick(EMPTIES);
  return { labels: { nonempty: 'fail', language: 'inconclusive', encoding: 'pass', repetition: 'pass' }, reply: { text, finishReason: 'stop' }, expectation: expect(language), transform: 'empty', meta: meta(text) };
};

const cutOff: Make = (language, reply, rng) => {
  // Almost nothing: a word or two (Han, kana and Hangul are about a word each).
  const dense = isCjk(language) || language === 'ko';
  const text = Array.from(reply.text).slice(0, dense ? rng.int(1, 3) : rng.int(1, 8)).join('').trimEnd();
  return { labels: { nonempty: 'fail', language: 'inconclusive', encoding: 'pass', repetition: 'pass', refusal: 'pass' }, reply: { text, finishReason: 'length' }, expectation: expect(language), transform: 'cut-off', meta: meta(text) };
};

// ── refusal: filtering and replies stopped half-way ──────────────────────────────────────
const contentFilter: Make = (language, reply, rng) => {
  const partial = rng.chance(0.5);
  const text = partial ? Array.from(reply.text).slice(0, rng.int(10, 60)).join('') : '';
  return {
    labels: { refusal: 'fail', nonempty: partial ? 'pass' : 'fail', encoding: 'pass' },
    reply: { text, finishReason: 'content_filter' },
    expectation: expect(language),
    transform: 'content-filter',
    meta: meta(text),
  };
};

const stopped: Make = (language, reply, rng) => {
  const cuts = [...reply.text.matchAll(/[,，、:：;；]/g)].map((m) => (m.index ?? 0) + 1).filter((i) => i > 20);
  if (cuts.length === 0) return undefined;
  const text = reply.text.slice(0, rng.pick(cuts));
  return { labels: naturalLabels({ refusal: 'fail', language: undefined }), reply: { text, finishReason: 'stop' }, expectation: expect(language), transform: 'stopped', meta: meta(text) };
};
