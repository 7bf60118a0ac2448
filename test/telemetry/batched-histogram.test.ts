import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Histogram, Registry } from 'prom-client';
import { BatchedHistogram } from '../../src/telemetry/batched-histogram.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** A seeded sequence, so both histograms see the same values run after run. */
function* values(count: number): Generator<number> {
  let x = 12345;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    yield ((x / 2 ** 31) ** 3) * 200; // mostly small, a few past the last bucket
  }
}

function pair() {
  const theirs = new Registry();
  const ours = new Registry();
  const reference = new Histogram({ name: 'h_seconds', help: 'help text', labelNames: ['role', 'route'], buckets: BUCKETS, registers: [theirs] });
  const batched = new BatchedHistogram({ name: 'h_seconds', help: 'help text', labelNames: ['role', 'route'], buckets: BUCKETS, registry: ours });
  return { theirs, ours, reference, batched };
}

test('exposition text and JSON equal prom-client\'s Histogram for the same observations', async () => {
  const { theirs, ours, reference, batched } = pair();
  const labelSets = [['chat', 'a@x'], ['chat', 'b@y'], ['code', 'a@x']] as const;
  const cells = labelSets.map(([role, route]) => batched.labels(role, route));
  let i = 0;
  for (const v of values(3000)) {
    const k = i++ % labelSets.length;
    reference.labels(...labelSets[k]!).observe(v);
    cells[k]!.observe(v);
  }
  // Exactly on a bound counts in that bucket (le is "less than or equal").
  reference.labels('chat', 'a@x').observe(0.5);
  batched.labels('chat', 'a@x').observe(0.5);
  assert.equal(await ours.metrics(), await theirs.metrics());
  // prom-client adds an empty `exemplar` to each value; nothing of Warden's uses exemplars.
  const withoutExemplars = (json: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) => json.map((m) => ({ ...m, values: (m.values as Array<Record<string, unknown>>).map(({ exemplar: _, ...v }) => v) }));
  assert.deepEqual(withoutExemplars(await ours.getMetricsAsJSON()), withoutExemplars(await theirs.getMetricsAsJSON()));
});

test('a value that is not a number is ignored, reset empties, and a wrong label count is refused', async () => {
  const { ours, batched } = pair();
  batched.labels('chat', 'a@x').observe(Number.NaN);
  assert.match(await ours.metrics(), /h_seconds_count\{role="chat",route="a@x"\} 0/);
  ours.resetMetrics();
  assert.doesNotMatch(await ours.metrics(), /role="chat"/);
  assert.throws(() => batched.labels('chat'), /expected 2 label values/);
});
