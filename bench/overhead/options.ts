// What one bench run does and for how long: flags first, then BENCH_* environment variables,
// then the full-run defaults.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

// `warden` runs on its default SQLite store; `warden-redis` is the same gateway on a Redis store,
// measured to show what sharing state adds per request.
export const TARGETS = ['direct', 'minimal', 'warden', 'warden-redis'] as const;
export type TargetName = (typeof TARGETS)[number];

export interface BenchOptions {
  warmupSeconds: number;
  measureSeconds: number;
  /** wrk runs per target and concurrency, alternating between targets; the median is reported. */
  rounds: number;
  /** wrk connection counts for the non-streaming runs. */
  connections: number[];
  /** Sequential streaming requests for first-token latency, and as many plain ones on one connection. */
  streams: number;
  /** Concurrent streams held open for the memory measurement. */
  held: number;
  targets: TargetName[];
  /** Write V8 CPU profiles of the load-phase proxies here; profiling slows them, so not for the figures. */
  cpuProfileDir: string | null;
  outDir: string;
}

// Many short windows rather than a few long ones: this VM's speed swings by tens of percent
// within seconds, and a figure is only compared within one round (report.ts). The first
// window of each target is preceded by the full warm-up V8 needs (FINDINGS: 3 s), later ones
// by a short one that reopens connections closed while the process was frozen.
const FULL = { warmup: 3, measure: 3, rounds: 12, streams: 1000, held: 5000 };
const QUICK = { warmup: 1, measure: 2, rounds: 1, streams: 200, held: 500 };

export const USAGE = `usage: node dist/bench/run.js [--quick] [--warmup S] [--duration S] [--rounds N] [--streams N] [--held N]
                         [--connections 10,100] [--targets direct,minimal,warden,warden-redis] [--cpu-prof DIR] [--out DIR]
  env: BENCH_WARMUP, BENCH_DURATION, BENCH_ROUNDS, BENCH_STREAMS, BENCH_HELD, BENCH_CONNECTIONS, BENCH_TARGETS
`;

/** The options of a run, or 'help' when only the usage was asked for. */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv, defaultOutDir: string): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      quick: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      warmup: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      streams: { type: 'string' },
      held: { type: 'string' },
      connections: { type: 'string' },
      targets: { type: 'string' },
      'cpu-prof': { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (values.help) return 'help';
  const base = values.quick ? QUICK : FULL;
  const targets = list(values.targets ?? env.BENCH_TARGETS, [...TARGETS]).map(targetName);
  // Added latency and every ratio are relative to direct and minimal in the same run.
  if (!targets.includes('direct') || !targets.includes('minimal')) {
    throw new Error('--targets must include direct and minimal: every figure is relative to them');
  }
  return {
    warmupSeconds: number('warmup', values.warmup ?? env.BENCH_WARMUP, base.warmup, 0),
    measureSeconds: number('duration', values.duration ?? env.BENCH_DURATION, base.measure, 1),
    rounds: number('rounds', values.rounds ?? env.BENCH_ROUNDS, base.rounds, 1),
    connections: list(values.connections ?? env.BENCH_CONNECTIONS, ['10', '100']).map((c) => number('connections', c, 10, 1)),
    streams: number('streams', values.streams ?? env.BENCH_STREAMS, base.streams, 10),
    held: number('held', values.held ?? env.BENCH_HELD, base.held, 1),
    targets: TARGETS.filter((t) => targets.includes(t)),
    cpuProfileDir: values['cpu-prof'] ? resolve(values['cpu-prof']) : null,
    outDir: values.out ?? defaultOutDir,
  };
}

function number(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number >= ${min}, got "${text}"`);
  return value;
}

function list(text: string | undefined, fallback: string[]): string[] {
  return text ? text.split(',').map((s) => s.trim()).filter(Boolean) : fallback;
}

function targetName(text: string): TargetName {
  const found = TARGETS.find((t) => t === text);
  if (!found) throw new Error(`unknown target "${text}"; expected one of ${TARGETS.join(', ')}`);
  return found;
}
