// Reads the labelled corpus: every *.jsonl file of test/fixtures/quality/.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CorpusCase } from './case.js';

/** The corpus folder, from dist/bench/quality-eval/ (compiled) back to the repository root. */
export const CORPUS_DIR = fileURLToPath(new URL('../../../test/fixtures/quality/', import.meta.url));

export function loadCorpus(dir = CORPUS_DIR): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) {
    const lines = readFileSync(dir + name, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        cases.push(JSON.parse(line) as CorpusCase);
      } catch (e) {
        throw new Error(`${name}:${i + 1}: ${(e as Error).message}`);
      }
    });
  }
  return cases;
}
