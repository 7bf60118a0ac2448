// The targets. A false failure quarantines a healthy route: precision of `fail` must
// stay at 0.99 or more; recall on seeded faults at 0.95 or more; pt/es and zh/ja mixing caught
// on paragraphs of 300 characters or more.
import type { EvaluationReport, SplitReport } from './evaluate.js';

export const TARGETS = { precision: 0.99, recall: 0.95, mixingRecall: 0.95 } as const;

/** Every target the report misses, as readable lines; empty when all are met. */
export function missedTargets(report: EvaluationReport): string[] {
  const missed: string[] = [];
  for (const [name, split] of [['all', report.all], ['holdout', report.holdout]] as Array<[string, SplitReport]>) {
    for (const [check, m] of Object.entries(split.checks)) {
      if (!m) continue;
      if (m.precision < TARGETS.precision) missed.push(`${name}: ${check} precision ${m.precision.toFixed(3)} < ${TARGETS.precision}`);
      if (m.faults > 0 && m.recall < TARGETS.recall) missed.push(`${name}: ${check} recall ${m.recall.toFixed(3)} < ${TARGETS.recall}`);
    }
    for (const [pair, m] of Object.entries(split.mixing)) {
      if (m.cases === 0) missed.push(`${name}: no ${pair} mixing cases of 300+ characters`);
      else if (m.recall < TARGETS.mixingRecall) missed.push(`${name}: ${pair} mixing recall ${m.recall.toFixed(3)} < ${TARGETS.mixingRecall}`);
    }
  }
  return missed;
}
