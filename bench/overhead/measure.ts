// Every measurement of a run. The load-phase servers run side by side (an idle Node process
// costs nothing) so wrk runs and first-token batches can alternate between targets: this VM's
// speed drifts by tens of percent within minutes, and alternating spreads the drift over all
// targets instead of handing it to whichever ran last. Memory is measured per target in turn.
import { startSequentialClient, type SequentialBatch, type SequentialUntil } from './client-runs.js';
import type { Fleet } from './fleet.js';
import { measureHeld, type HeldResult } from './held.js';
import { ForeignLoad, waitForQuiet } from './machine-load.js';
import { measureLoad, medianOfRuns, warmupBefore, type LoadResult, type LoadRun } from './load.js';
import type { BenchOptions, TargetName } from './options.js';
import type { Child } from './processes.js';
import { summarize } from './percentiles.js';
import { startTarget, type Environment, type RunningTarget } from './targets.js';
import { runWrk, writePostScript } from './wrk.js';

/** Requests run one after another on one connection, in turns alternating between targets. */
export interface SequentialResult {
  count: number;
  errors: number;
  firstError: string | null;
  p50Ms: number;
  p99Ms: number;
  /** The p50 of each round's turn (null when the turn gave no sample), for the paired checks. */
  roundP50Ms: Array<number | null>;
  /** Foreign CPU (cores) over the whole interleaved phase, shared by every target. */
  foreignCores: number;
}

export interface TargetResult {
  name: TargetName;
  load: LoadResult[];
  /** Streams, timed to their first content event. */
  firstToken: SequentialResult;
  /**
   * Non-streaming requests on one idle connection, timed to the answer's end: the latency a
   * proxy adds per hop without queueing (FINDINGS' "added p50, one connection"), where the
   * load windows' latency follows throughput.
   */
  oneConnection: SequentialResult;
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

/** Requests per target and round of a sequential phase: a turn lasts tens of milliseconds. */
const SEQUENTIAL_TURN = 20;
/** Connections of the streaming warm-up before the first-token batches. */
const STREAM_WARMUP_CONNECTIONS = 10;

export async function measureAll(ctx: MeasureContext): Promise<TargetResult[]> {
  const { env, options } = ctx;
  const targets: RunningTarget[] = [];
  const load = new Map<TargetName, LoadResult[]>();
  let firstToken = new Map<TargetName, SequentialResult>();
  let oneConnection = new Map<TargetName, SequentialResult>();
  try {
    for (const name of options.targets) targets.push(await startTarget(name, 'load', env));
    const settings = { ...options, loadCore: ctx.loadCore, scriptDir: ctx.scriptDir, fleet: ctx.fleet, benchPids: () => env.procs.pids(), progress: ctx.progress };
    const runs = new Map<string, LoadRun[]>();
    for (let round = 1; round <= options.rounds; round++) {
      const warmupSeconds = warmupBefore(round, options.warmupSeconds);
      ctx.progress(`round ${round} of ${options.rounds}: wrk ${warmupSeconds} s warm-up + ${options.measureSeconds} s per target and concurrency`);
      const order = inRoundOrder(targets, round);
      for (const connections of options.connections) {
        for (const target of order) {
          const key = `${target.name}@${connections}`;
          const run = await env.procs.frozen(proxiesBut(targets, target), () => measureLoad(target, connections, { ...settings, warmupSeconds }));
          runs.set(key, [...(runs.get(key) ?? []), run]);
        }
      }
    }
    for (const target of targets) load.set(target.name, options.connections.map((c) => medianOfRuns(runs.get(`${target.name}@${c}`) ?? [])));
    // The plain path is warm from the load rounds; the stream path gets its own warm-up.
    ctx.progress(`one connection: ${options.streams} sequential non-streaming requests per target, alternating in turns of ${SEQUENTIAL_TURN}`);
    await waitForQuiet(env.procs.pids(), 0.1, 60_000);
    oneConnection = await sequentialInterleaved(targets, ctx, 'answer');
    await warmStreaming(targets, ctx);
    ctx.progress(`first token: ${options.streams} sequential streams per target, alternating in turns of ${SEQUENTIAL_TURN}`);
    firstToken = await sequentialInterleaved(targets, ctx, 'first-content');
  } finally {
    for (const target of targets) if (target.proxy) await env.procs.stop(target.proxy, 15_000);
  }
  const results: TargetResult[] = [];
  for (const name of options.targets) {
    const held = await measureHeld(name, options.held, env, ctx.fleet, ctx.loadCore, ctx.progress);
    results.push({ name, load: load.get(name) ?? [], firstToken: firstToken.get(name) as SequentialResult, oneConnection: oneConnection.get(name) as SequentialResult, held });
  }
  return results;
}

/** The targets in `round`'s order (from 1): reversed every other round, so no target always runs right after another one. */
function inRoundOrder(targets: RunningTarget[], round: number): RunningTarget[] {
  return round % 2 === 1 ? targets : [...targets].reverse();
}

/** The proxy processes to freeze while `target` is measured. */
function proxiesBut(targets: RunningTarget[], target: RunningTarget): Child[] {
  return targets.filter((t) => t !== target).flatMap((t) => (t.proxy ? [t.proxy] : []));
}

/**
 * The streaming path's own warm-up, as the load rounds have theirs: the load phase only sent
 * non-streaming requests, so a proxy that reads what it relays meets new code and new object
 * shapes here (V8 was still optimising Warden's stream path 3,000 streams in, one function at a
 * time), while a proxy that relays bytes runs the code it ran all along.
 */
async function warmStreaming(targets: RunningTarget[], ctx: MeasureContext): Promise<void> {
  const seconds = ctx.options.warmupSeconds;
  if (seconds <= 0) return;
  ctx.progress(`first token: ${seconds} s streaming warm-up per target (wrk, ${STREAM_WARMUP_CONNECTIONS} connections)`);
  for (const t of targets) {
    const script = writePostScript(ctx.scriptDir, `${t.name}-stream`, t.bodies.stream);
    const run = await ctx.env.procs.frozen(proxiesBut(targets, t), () => runWrk(t.url, script, STREAM_WARMUP_CONNECTIONS, seconds, ctx.loadCore));
    if (run.errors > 0) throw new Error(`first-token warm-up of ${t.name}: ${run.errors} of ${run.requests} streaming requests failed`);
  }
}

/**
 * Every target's sequential requests (streams timed to their first token, or plain requests
 * timed to the answer) in short turns, interleaved round by round, then summarised per
 * target. Turns are short because this VM flips between speeds within a second (one proxy's
 * 100-stream batches measured 60 and 150 µs of in-proxy time a second apart): a check then
 * compares the targets' turns of the same round, as the load checks do.
 */
async function sequentialInterleaved(targets: RunningTarget[], ctx: MeasureContext, until: SequentialUntil): Promise<Map<TargetName, SequentialResult>> {
  const tallies = new Map<TargetName, SequentialBatch & { roundP50Ms: Array<number | null> }>(targets.map((t) => [t.name, { samples: [], errors: 0, firstError: null, roundP50Ms: [] }]));
  const total = ctx.options.streams;
  const body = (t: RunningTarget) => (until === 'answer' ? t.bodies.plain : t.bodies.stream);
  const clients = new Map(targets.map((t) => [t.name, startSequentialClient(ctx.env.procs, ctx.loadCore, t.name, t.url, body(t), until)]));
  const foreign = new ForeignLoad(ctx.env.procs.pids());
  try {
    for (let done = 0, round = 1; done < total; done += SEQUENTIAL_TURN, round++) {
      const count = Math.min(SEQUENTIAL_TURN, total - done);
      for (const t of inRoundOrder(targets, round)) {
        const batch = await ctx.env.procs.frozen(proxiesBut(targets, t), () => clients.get(t.name)!.turn(count));
        const tally = tallies.get(t.name)!;
        tally.samples.push(...batch.samples);
        tally.roundP50Ms.push(batch.samples.length > 0 ? summarize(batch.samples).p50 : null);
        tally.errors += batch.errors;
        tally.firstError ??= batch.firstError;
      }
    }
  } finally {
    await Promise.all([...clients.values()].map((c) => c.close()));
  }
  const foreignCores = foreign.cores();
  const results = new Map<TargetName, SequentialResult>();
  for (const [name, tally] of tallies) {
    // A request that fails is a broken target, not a slow one: no latency figure hides it.
    if (tally.errors > 0 || tally.samples.length === 0) {
      throw new Error(`${until === 'answer' ? 'one connection' : 'first token'} ${name}: ${tally.errors} of ${total} requests failed (${tally.firstError ?? 'no content seen'})`);
    }
    const { p50, p99, count } = summarize(tally.samples);
    results.set(name, { count, errors: tally.errors, firstError: tally.firstError, p50Ms: p50, p99Ms: p99, roundP50Ms: tally.roundP50Ms, foreignCores });
  }
  return results;
}
