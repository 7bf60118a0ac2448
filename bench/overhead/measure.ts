// Every measurement of a run. The load-phase servers run side by side (an idle Node process
// costs nothing) so wrk runs and first-token batches can alternate between targets: this VM's
// speed drifts by tens of percent within minutes, and alternating spreads the drift over all
// targets instead of handing it to whichever ran last. Memory is measured per target in turn.
import { runFirstTokenBatch, type FirstTokenBatch } from './client-runs.js';
import type { Fleet } from './fleet.js';
import { measureHeld, type HeldResult } from './held.js';
import { ForeignLoad, waitForQuiet } from './machine-load.js';
import { measureLoad, medianOfRuns, warmupBefore, type LoadResult, type LoadRun } from './load.js';
import type { BenchOptions, TargetName } from './options.js';
import { summarize } from './percentiles.js';
import { startTarget, type Environment, type RunningTarget } from './targets.js';

export interface FirstTokenResult {
  count: number;
  errors: number;
  firstError: string | null;
  p50Ms: number;
  p99Ms: number;
  /** Foreign CPU (cores) over the whole interleaved first-token phase, shared by every target. */
  foreignCores: number;
}

export interface TargetResult {
  name: TargetName;
  load: LoadResult[];
  firstToken: FirstTokenResult;
  held: HeldResult;
}

export interface MeasureContext {
  env: Environment;
  fleet: Fleet;
  options: BenchOptions;
  /** The core shared by the fleet and the load generators. */
  loadCore: number;
  scriptDir: string;
  progress(message: string): void;
}

/** Streams per first-token batch: small enough to alternate often, large enough to be cheap. */
const FIRST_TOKEN_BATCH = 100;

export async function measureAll(ctx: MeasureContext): Promise<TargetResult[]> {
  const { env, options } = ctx;
  const targets: RunningTarget[] = [];
  const load = new Map<TargetName, LoadResult[]>();
  let firstToken = new Map<TargetName, FirstTokenResult>();
  try {
    for (const name of options.targets) targets.push(await startTarget(name, 'load', env));
    const settings = { ...options, loadCore: ctx.loadCore, scriptDir: ctx.scriptDir, fleet: ctx.fleet, benchPids: () => env.procs.pids(), progress: ctx.progress };
    const runs = new Map<string, LoadRun[]>();
    for (let round = 1; round <= options.rounds; round++) {
      const warmupSeconds = warmupBefore(round, options.warmupSeconds);
      ctx.progress(`round ${round} of ${options.rounds}: wrk ${warmupSeconds} s warm-up + ${options.measureSeconds} s per target and concurrency`);
      // Reversed every other round, so no target always runs right after another one.
      const order = round % 2 === 1 ? targets : [...targets].reverse();
      for (const connections of options.connections) {
        for (const target of order) {
          const key = `${target.name}@${connections}`;
          const others = targets.filter((t) => t !== target).flatMap((t) => (t.proxy ? [t.proxy] : []));
          const run = await env.procs.frozen(others, () => measureLoad(target, connections, { ...settings, warmupSeconds }));
          runs.set(key, [...(runs.get(key) ?? []), run]);
        }
      }
    }
    for (const target of targets) load.set(target.name, options.connections.map((c) => medianOfRuns(runs.get(`${target.name}@${c}`) ?? [])));
    ctx.progress(`first token: ${options.streams} sequential streams per target, alternating in batches of ${FIRST_TOKEN_BATCH}`);
    await waitForQuiet(env.procs.pids(), 0.1, 60_000);
    firstToken = await firstTokenInterleaved(targets, ctx);
  } finally {
    for (const target of targets) if (target.proxy) await env.procs.stop(target.proxy, 15_000);
  }
  const results: TargetResult[] = [];
  for (const name of options.targets) {
    const held = await measureHeld(name, options.held, env, ctx.fleet, ctx.loadCore, ctx.progress);
    results.push({ name, load: load.get(name) ?? [], firstToken: firstToken.get(name) as FirstTokenResult, held });
  }
  return results;
}

/** Every target's first-token batches, interleaved, then summarised per target. */
async function firstTokenInterleaved(targets: RunningTarget[], ctx: MeasureContext): Promise<Map<TargetName, FirstTokenResult>> {
  const tallies = new Map<TargetName, FirstTokenBatch>(targets.map((t) => [t.name, { samples: [], errors: 0, firstError: null }]));
  const total = ctx.options.streams;
  const foreign = new ForeignLoad(ctx.env.procs.pids());
  for (let done = 0; done < total; done += FIRST_TOKEN_BATCH) {
    const count = Math.min(FIRST_TOKEN_BATCH, total - done);
    for (const t of targets) {
      const others = targets.filter((o) => o !== t).flatMap((o) => (o.proxy ? [o.proxy] : []));
      const batch = await ctx.env.procs.frozen(others, () => runFirstTokenBatch(ctx.env.procs, ctx.loadCore, t.name, t.url, t.bodies.stream, count));
      const tally = tallies.get(t.name) as FirstTokenBatch;
      tally.samples.push(...batch.samples);
      tally.errors += batch.errors;
      tally.firstError ??= batch.firstError;
    }
  }
  const foreignCores = foreign.cores();
  const results = new Map<TargetName, FirstTokenResult>();
  for (const [name, tally] of tallies) {
    // A stream that fails is a broken target, not a slow one: no latency figure hides it.
    if (tally.errors > 0 || tally.samples.length === 0) {
      throw new Error(`first-token ${name}: ${tally.errors} of ${total} streams failed (${tally.firstError ?? 'no content seen'})`);
    }
    const { p50, p99, count } = summarize(tally.samples);
    results.set(name, { count, errors: tally.errors, firstError: tally.firstError, p50Ms: p50, p99Ms: p99, foreignCores });
  }
  return results;
}
