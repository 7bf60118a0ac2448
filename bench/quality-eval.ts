// `npm run eval:quality`: runs the quality detectors over the labelled corpus and prints, per
// check, precision of fail, recall on seeded faults and the inconclusive share, for the held-out
// half, the tuning half and both; writes the same as JSON to test-artifacts/quality-eval.json.
//   --json        print the JSON report instead of the table
//   --misses      list the cases each check got wrong (tuning half only, unless --all)
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCorpus } from './quality-eval/corpus.js';
import { evaluate, type SplitReport } from './quality-eval/evaluate.js';
import { missedTargets, TARGETS } from './quality-eval/targets.js';

const args = new Set(process.argv.slice(2));
const report = evaluate(loadCorpus());
const missed = missedTargets(report);
const json = JSON.stringify({ ...report, targets: TARGETS, missed, misses: report.misses.length }, null, 2);
const out = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}quality-eval.json`, `${JSON.stringify({ ...report, targets: TARGETS, missed }, null, 2)}\n`);

if (args.has('--json')) {
  process.stdout.write(`${json}\n`);
} else {
  const { corpus } = report;
  process.stdout.write(`quality corpus: ${corpus.cases} cases, ${corpus.labels} labels (tune ${corpus.tune}, held out ${corpus.holdout})\n\n`);
  for (const [name, split] of [['held out (reported)', report.holdout], ['tuning half', report.tune], ['all', report.all]] as Array<[string, SplitReport]>) {
    process.stdout.write(`${name}\n${table(split)}\n`);
  }
  process.stdout.write(missed.length === 0 ? 'all targets met\n' : `targets missed:\n  ${missed.join('\n  ')}\n`);
  process.stdout.write(`written: ${out}quality-eval.json\n`);
}
if (args.has('--misses')) {
  for (const m of report.misses.filter((x) => args.has('--all') || x.split === 'tune')) {
    process.stdout.write(`  ${m.check.padEnd(10)} ${m.id}: expected ${m.expected}, got ${m.got} (${m.reason})\n`);
  }
}
process.exitCode = missed.length === 0 ? 0 : 1;

function table(split: SplitReport): string {
  const rows = [['check', 'cases', 'faults', 'precision', 'recall', 'inconclusive'].map((h) => h.padEnd(12)).join('')];
  for (const [check, m] of Object.entries(split.checks)) {
    if (!m) continue;
    rows.push([check, String(m.cases), String(m.faults), `${m.precision.toFixed(3)} (${m.falseFails} FP)`, `${m.recall.toFixed(3)}`, `${(m.inconclusiveShare * 100).toFixed(1)}%`].map((c) => c.padEnd(12)).join(''));
  }
  for (const [pair, m] of Object.entries(split.mixing)) rows.push(`mixing ${pair} at 300+ chars: ${m.caught}/${m.cases} caught (recall ${m.recall.toFixed(3)})`);
  return `  ${rows.join('\n  ')}\n`;
}
