// `npm run bench:quality`: replies per second for all nine quality checks together over
// 1,000-character replies, per language, on one core (the detectors are synchronous: one
// thread is one core). Replies are built from the corpus's good replies. Timings are
// reported, never asserted (DESIGN.md).
//   node dist/bench/quality.js [--seconds N]
import { cpuUsage } from 'node:process';
import { CHECK_NAMES, runChecks, warmUp, type Expectation, type Reply } from '../src/quality/index.js';
import { loadCorpus } from './quality-eval/corpus.js';

const LANGUAGES = ['en', 'pt', 'es', 'de', 'ru', 'ar', 'hi', 'zh', 'ja', 'ko', 'th', 'vi'];
const REPLY_CHARS = 1000;
const WARM_UP_MS = 2000;
const secondsArg = process.argv.indexOf('--seconds');
const MEASURE_MS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) * 1000 : 1500;

const SCHEMA = { type: 'object', required: ['answer'], properties: { answer: { type: 'string' } } };

function repliesFor(language: string): Reply[] {
  const texts = loadCorpus()
    .filter((c) => c.transform === 'good' && c.language === language)
    .map((c) => c.reply.text.replace(/\s+/g, ' '));
  const replies: Reply[] = [];
  for (let start = 0; start < texts.length; start++) {
    let text = '';
    for (let k = start; text.length < REPLY_CHARS; k = (k + 1) % texts.length) text += (text ? ' ' : '') + texts[k];
    replies.push({ text: Array.from(text).slice(0, REPLY_CHARS).join(''), finishReason: 'stop' });
  }
  return replies;
}

function measure(replies: readonly Reply[], expectation: Expectation, ms: number): { perSecond: number; cpuMicros: number } {
  let n = 0;
  const cpu0 = cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    for (const reply of replies) runChecks(CHECK_NAMES, reply, expectation);
    n += replies.length;
  }
  const elapsed = performance.now() - t0;
  const cpu = cpuUsage(cpu0);
  return { perSecond: (n / elapsed) * 1000, cpuMicros: (cpu.user + cpu.system) / n };
}

warmUp();
const sets = LANGUAGES.map((language) => ({
  language,
  replies: repliesFor(language),
  expectation: { language, minLength: 200, expected: ['Paris'], schema: SCHEMA, strictJson: true } satisfies Expectation,
})).filter((s) => s.replies.length > 0);
// V8 needs a while on every code path before the numbers settle (FINDINGS: warm up, then measure).
for (const set of sets) measure(set.replies, set.expectation, WARM_UP_MS / sets.length);
const rows: string[] = [];
let worst = Infinity;
for (const { language, replies, expectation } of sets) {
  const { perSecond, cpuMicros } = measure(replies, expectation, MEASURE_MS);
  // CPU time per reply is the stable figure on a shared machine; wall-clock rate is shown beside it.
  const perCpuSecond = 1e6 / cpuMicros;
  worst = Math.min(worst, perCpuSecond);
  rows.push(`  ${language}  ${cpuMicros.toFixed(1).padStart(6)} µs CPU per reply = ${Math.round(perCpuSecond).toString().padStart(6)} replies per CPU-second  (wall clock: ${Math.round(perSecond)}/s)`);
}
process.stdout.write(`all ${CHECK_NAMES.length} checks over ${REPLY_CHARS}-character replies, one thread (Node ${process.version}):\n${rows.join('\n')}\nslowest language: ${Math.round(worst)} replies per CPU-second on one core (target 5,000)\n`);
