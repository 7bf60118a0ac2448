// Measures candidate language detectors on the quality corpus, to choose one for the
// `language` check (README, "Choosing the language detector"). Not part of the build: the
// candidates are not project dependencies. Run it in a scratch directory:
//   mkdir /tmp/langbench && cd /tmp/langbench && npm init -y
//   npm install eld@2.1.0 tinyld@1.3.4 franc@6.2.0 franc-min@6.2.0 lande@1.0.10 languagedetect@2.0.0 cld@2.10.1
//   cp /path/to/warden/scripts/compare-language-detectors.mjs . && node compare-language-detectors.mjs /path/to/warden
// (copied, so that the candidates resolve from the scratch directory's node_modules).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = process.argv[2] ?? process.cwd();
const require = createRequire(import.meta.url);
const importLocal = (name) => import(name);

const ISO3 = { eng: 'en', cmn: 'zh', jpn: 'ja', kor: 'ko', spa: 'es', por: 'pt', fra: 'fr', deu: 'de', ita: 'it', rus: 'ru', arb: 'ar', ara: 'ar', hin: 'hi', ind: 'id', zlm: 'id', msa: 'id', vie: 'vi', tha: 'th', tur: 'tr', pol: 'pl' };
const NAMES = { english: 'en', chinese: 'zh', japanese: 'ja', korean: 'ko', spanish: 'es', portuguese: 'pt', french: 'fr', german: 'de', italian: 'it', russian: 'ru', arabic: 'ar', hindi: 'hi', indonesian: 'id', vietnamese: 'vi', thai: 'th', turkish: 'tr', polish: 'pl' };
const norm = (code) => (code === 'ms' || code === 'in' ? 'id' : code?.startsWith('zh') ? 'zh' : code);

async function candidates() {
  const list = [];
  const { eld } = await importLocal('eld/medium');
  list.push(['eld 2.1 medium', (t) => norm(eld.detect(t).language)]);
  const tinyld = await importLocal('tinyld');
  list.push(['tinyld 1.3', (t) => norm(tinyld.detect(t))]);
  const { franc } = await importLocal('franc');
  list.push(['franc 6.2', (t) => ISO3[franc(t, { minLength: 1 })] ?? franc(t, { minLength: 1 })]);
  const francMin = (await importLocal('franc-min')).franc;
  list.push(['franc-min 6.2', (t) => ISO3[francMin(t, { minLength: 1 })] ?? 'und']);
  const lande = (await importLocal('lande')).default;
  list.push(['lande 1.0', (t) => { const top = lande(t)[0]?.[0]; return ISO3[top] ?? top; }]);
  const LanguageDetect = require('languagedetect');
  const ld = new LanguageDetect();
  list.push(['languagedetect 2.0', (t) => NAMES[ld.detect(t, 1)[0]?.[0]] ?? 'und']);
  try {
    const cld = require('cld');
    list.push(['cld 2.10 (native)', async (t) => { try { return norm((await cld.detect(t, { isHTML: false })).languages[0]?.code); } catch { return 'und'; } }]);
  } catch { /* not built here */ }
  return list;
}

const corpusDir = path.join(root, 'test/fixtures/quality');
const cases = readdirSync(corpusDir).filter((n) => n.endsWith('.jsonl')).flatMap((n) => readFileSync(path.join(corpusDir, n), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
const sentencesOf = (text) => text.replace(/^\*\*.*\*\*$/gm, '').replace(/^- /gm, '').split(/(?<=[.!?。！？।])\s*|\n+/).map((s) => s.trim()).filter((s) => s.replace(/[^\p{L}]/gu, '').length >= 8);

const goodSentences = cases.filter((c) => c.transform === 'good').flatMap((c) => sentencesOf(c.reply.text).map((s) => [c.language, s]));
// Everyday chat: the simulated fleet's sentence banks (written by hand, one per language), when built.
let chatSentences = [];
try {
  const { SENTENCES } = await import(path.join(root, 'dist/src/sim/sentences.js'));
  chatSentences = Object.entries(SENTENCES).flatMap(([lang, list]) => list.map((s) => [lang, s]));
} catch { /* build the project first to include them */ }
const hardSentences = cases.filter((c) => c.transform === 'hand:negative-language').flatMap((c) => sentencesOf(c.reply.text).map((s) => [c.language, s]));
const mixed = cases.filter((c) => c.transform.startsWith('splice:') && ['pt/es', 'es/pt', 'zh/ja', 'ja/zh'].includes(c.meta?.pair) && c.meta.chars >= 300);
const clean = cases.filter((c) => c.transform === 'good' && ['pt', 'es', 'zh', 'ja'].includes(c.language));

for (const [name, detect] of await candidates()) {
  let right = 0;
  for (const [lang, s] of goodSentences) if ((await detect(s)) === lang) right++;
  let chatRight = 0;
  for (const [lang, s] of chatSentences) if ((await detect(s)) === lang) chatRight++;
  let hardRight = 0;
  for (const [lang, s] of hardSentences) if ((await detect(s)) === lang) hardRight++;
  const flagged = async (c) => {
    let foreign = 0;
    for (const s of sentencesOf(c.reply.text)) if ((await detect(s)) !== c.expectation.language) foreign++;
    return foreign >= 2;
  };
  let caught = 0;
  for (const c of mixed) if (await flagged(c)) caught++;
  let falseFlags = 0;
  for (const c of clean) if (await flagged(c)) falseFlags++;
  const sample = goodSentences.slice(0, 400).map(([, s]) => s);
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 1500) for (const s of sample) { await detect(s); n++; }
  const perSecond = Math.round((n / (performance.now() - t0)) * 1000);
  console.log(`${name.padEnd(20)} UDHR sentences ${(100 * right / goodSentences.length).toFixed(1)}%  chat ${(100 * chatRight / chatSentences.length).toFixed(1)}%  with names/code ${(100 * hardRight / hardSentences.length).toFixed(1)}%  mixing caught ${caught}/${mixed.length}  clean flagged ${falseFlags}/${clean.length}  ${perSecond}/s`);
}
console.log(`(${goodSentences.length} UDHR sentences, ${chatSentences.length} chat sentences, ${hardSentences.length} with names/code/terms, ${mixed.length} pt/es and zh/ja mixed replies of 300+ chars, ${clean.length} clean pt/es/zh/ja replies; rule: two or more sentences not in the expected language)`);
