// The markdown shown on screen and written to bench/results/latest.md.
import type { Machine } from './machine.js';
import type { TargetResult } from './measure.js';
import type { BenchOptions } from './options.js';
import { roundFigures, type Derived } from './report.js';
import { warmupBefore } from './load.js';
import { percentile } from './percentiles.js';

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : 'n/a');
const signed = (n: number) => (Number.isFinite(n) ? `${n >= 0 ? '+' : ''}${n.toFixed(3)}` : 'n/a');
const mb = (bytes: number) => (bytes / 1048576).toFixed(1);

export function renderMarkdown(results: TargetResult[], derived: Derived, options: BenchOptions, machine: Machine): string {
  const names = results.map((r) => r.name);
  const row = (label: string, cell: (r: TargetResult) => string) => `| ${label} | ${results.map(cell).join(' | ')} |`;
  const lines = [
    `# Warden overhead benchmark`,
    ``,
    `${machine.date} · ${machine.cpuModel} × ${machine.cores} · Node ${machine.node} · ${machine.commit}`,
    `wrk -t1, ${options.rounds} round(s) of ${options.measureSeconds} s measured per target and concurrency (${options.warmupSeconds} s warm-up before the first, ${warmupBefore(2, options.warmupSeconds)} s before the others), target order reversed every other round; figures per target are medians over the rounds; proxy pinned to core 0, fleet and clients to core 1.`,
    ``,
    `| | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---:').join('|')}|`,
  ];
  const connections = results[0]?.load.map((l) => l.connections) ?? [];
  for (const [i, c] of connections.entries()) {
    lines.push(row(`req/s @${c}`, (r) => (r.load[i]?.rps ?? Number.NaN).toFixed(0)));
    lines.push(row(`p50 / p99 ms @${c}`, (r) => `${ms(r.load[i]?.p50Ms ?? Number.NaN)} / ${ms(r.load[i]?.p99Ms ?? Number.NaN)}`));
    lines.push(row(`added p50 / p99 ms @${c}`, (r) => added(derived.addedMs[r.name]?.[i])));
    lines.push(row(`CPU µs/request @${c}`, (r) => `${(r.load[i]?.serverCpuUsPerRequest ?? Number.NaN).toFixed(1)}${r.name === 'direct' ? ' (fleet)' : ''}`));
    lines.push(row(`fleet CPU µs/request @${c}`, (r) => (r.load[i]?.fleetCpuUsPerRequest ?? Number.NaN).toFixed(1)));
  }
  lines.push(row('foreign CPU during wrk runs, cores (worst)', (r) => Math.max(...r.load.map((l) => l.foreignCores)).toFixed(2)));
  lines.push(row(`one connection p50 / p99 ms (${options.streams} sequential requests)`, (r) => `${ms(r.oneConnection.p50Ms)} / ${ms(r.oneConnection.p99Ms)}`));
  lines.push(row('one connection added p50 / p99 ms', (r) => added(derived.oneConnectionAddedMs[r.name])));
  lines.push(row(`first token p50 / p99 ms (${options.streams} streams)`, (r) => `${ms(r.firstToken.p50Ms)} / ${ms(r.firstToken.p99Ms)}`));
  lines.push(row('first token added p50 / p99 ms', (r) => added(derived.firstTokenAddedMs[r.name])));
  lines.push(row(`RSS MiB before / with ${options.held} streams`, (r) => `${mb(r.held.rssBeforeBytes)} / ${mb(r.held.rssWithBytes)}${r.held.process === 'fleet' ? ' (fleet)' : ''}`));
  lines.push(row('KiB per held stream', (r) => (r.held.bytesPerStream / 1024).toFixed(1)));
  const foreign = Math.max(...results.flatMap((r) => [...r.load.map((l) => l.foreignCores), r.firstToken.foreignCores, r.oneConnection.foreignCores]));
  if (foreign > 0.15) lines.push('', `Other processes used up to ${foreign.toFixed(2)} cores during some measurements: figures are noisier than usual.`);
  lines.push('', 'Checks are paired: the figure is computed within each round (load windows, or turns of 20 sequential requests; order alternating forward and reversed), and the median over rounds is judged.');
  lines.push('', '| check | value | target | result |', '|---|---:|---:|---|');
  for (const c of derived.checks) {
    const value = c.value === null ? (c.note ?? 'n/a') : c.value.toFixed(2);
    const rounds = c.perRound ? ` (${spread(c.perRound)})` : '';
    lines.push(`| ${c.name} | ${value}${rounds} | ${c.kind === 'min' ? '≥' : '≤'} ${c.target} | ${c.verdict} |`);
  }
  for (const i of derived.info) lines.push(`| ${i.name} | ${i.value === null ? 'n/a' : i.value.toFixed(2)} | — | info |`);
  return `${lines.join('\n')}\n`;
}

function added(a: { p50: number; p99: number } | undefined): string {
  return a ? `${signed(a.p50)} / ${signed(a.p99)}` : '—';
}

/** The middle half of a check's per-round figures, and how many rounds gave one. */
function spread(perRound: Array<number | null>): string {
  const values = roundFigures(perRound).sort((a, b) => a - b);
  if (values.length < 4) return `rounds: ${perRound.map((v) => (v === null ? '—' : v.toFixed(2))).join(', ')}`;
  return `middle half ${percentile(values, 25).toFixed(2)} to ${percentile(values, 75).toFixed(2)} over ${values.length} rounds`;
}
