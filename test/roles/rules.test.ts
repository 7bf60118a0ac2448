// The automatic rules and the figures they read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArmStats, judgeRollout, type ArmFigures } from '../../src/roles/index.js';

const RULES = { after: 100, bound: 0.05, steps: [10, 25, 50, 100] };
const arm = (model: string, requests: number, fallbacks: number, quality = 0): ArmFigures => ({
  model, weight: 0, requests, fallbacks, fallbackRate: fallbacks / requests, qualityFailures: quality, qualityFailureRate: quality / requests, errors: 0, latencyP50Ms: 1, costUsd: 0,
});

test('no decision before the candidate has served `after` requests', () => {
  assert.deepEqual(judgeRollout(arm('new', 99, 99, 99), arm('main', 900, 0), 10, RULES), { action: 'hold' });
});

test('within the bound of the incumbent: advance to the next step, and past the last to 100', () => {
  const step = judgeRollout(arm('new', 100, 6), arm('main', 900, 9), 10, RULES);
  assert.equal(step.action, 'advance');
  assert.equal(step.action === 'advance' && step.to, 25);
  const last = judgeRollout(arm('new', 100, 0), arm('main', 100, 0), 60, RULES);
  assert.equal(last.action === 'advance' && last.to, 100);
});

test('above the bound on fallbacks or on quality failures: roll back, saying which and by how much', () => {
  const fallbacks = judgeRollout(arm('new', 100, 20), arm('main', 900, 9), 10, RULES);
  assert.equal(fallbacks.action, 'rollback');
  assert.match(fallbacks.action === 'rollback' ? fallbacks.why : '', /fallback rate 20\.0% on new vs 1\.0% on main \(100 vs 900 requests\) exceeds the bound of 5\.0%/);
  const quality = judgeRollout(arm('new', 100, 0, 7), arm('main', 900, 0, 9), 10, RULES);
  assert.match(quality.action === 'rollback' ? quality.why : '', /quality failure rate 7\.0% on new vs 1\.0% on main/);
});

test('arm figures: rates, the median latency, cost; the counted hook runs after each request', () => {
  let counted = 0;
  const stats = new ArmStats('new', 10, () => counted++);
  for (const [ms, failures, quality, usd] of [[10, 0, 0, 0.001], [30, 1, 1, 0.002], [20, 0, 0, 0.003]] as const) {
    stats.ended({ outcome: 'ok', failures, qualityFailures: quality, latencyMs: ms, costUsd: usd });
  }
  stats.ended({ outcome: 'upstream_error', failures: 2, qualityFailures: 0, latencyMs: 40, costUsd: 0 });
  assert.deepEqual(stats.figures(), { model: 'new', weight: 10, requests: 4, fallbacks: 2, fallbackRate: 0.5, qualityFailures: 1, qualityFailureRate: 0.25, errors: 1, latencyP50Ms: 25, costUsd: 0.006 });
  assert.equal(counted, 4);
  assert.equal(new ArmStats('x', 1).figures().latencyP50Ms, null);
});
