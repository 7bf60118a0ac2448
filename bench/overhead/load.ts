// Non-streaming load against one target at one concurrency: a wrk warm-up, then a measured wrk
// run with the CPU time of the target's server and of the fleet read around it.
import type { Fleet } from './fleet.js';
import { ForeignLoad, waitForQuiet } from './machine-load.js';
import { cpuSeconds } from './proc-stats.js';
import type { RunningTarget } from './targets.js';
import { median } from './percentiles.js';
import { runWrk, writePostScript } from './wrk.js';

export interface LoadRun {
  connections: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU of the process standing for the target (the fleet for direct) per request, in µs. */
  serverCpuUsPerRequest: number;
  /** The fleet's CPU per request, to see whether the fleet is what limits a run. */
  fleetCpuUsPerRequest: number;
  /** Cores' worth of CPU used by processes outside the bench during the measured window. */
  foreignCores: number;
}

/**
 * The median of each figure over the rounds (foreignCores: the worst round), with the rounds
 * themselves kept for the record.
 */
export interface LoadResult extends LoadRun {
  runs: LoadRun[];
}

/** Warm-up before a target's later windows: V8 is warm by then, the connections may not be. */
const REWARM_SECONDS = 1;

/** The unrecorded load before a target's window in `round`: the full warm-up in round 1 only. */
export function warmupBefore(round: number, warmupSeconds: number): number {
  return round === 1 ? warmupSeconds : Math.min(warmupSeconds, REWARM_SECONDS);
}

export interface LoadSettings {
  /** Unrecorded load before the measured window (warmupBefore). */
  warmupSeconds: number;
  measureSeconds: number;
  loadCore: number;
  scriptDir: string;
  fleet: Fleet;
  /** Every process of the bench, so their CPU is not mistaken for someone else's. */
  benchPids(): number[];
  progress(message: string): void;
}

/** Machine load (cores, outside the bench) under which a measurement may start. */
const QUIET_CORES = 0.1;
/** How long to wait for quiet before measuring anyway (and recording the load). */
const QUIET_WAIT_MS = 60_000;
/** A measured window with more foreign load than this is run again, at most RETRIES times. */
const FOREIGN_LIMIT_CORES = 0.15;
const RETRIES = 2;

export async function measureLoad(target: RunningTarget, connections: number, s: LoadSettings): Promise<LoadRun> {
  const script = writePostScript(s.scriptDir, target.name, target.bodies.plain);
  let best: LoadRun | null = null;
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    const background = await waitForQuiet(s.benchPids(), QUIET_CORES, QUIET_WAIT_MS);
    if (background > QUIET_CORES) s.progress(`machine busy outside the bench (${background.toFixed(2)} cores): measuring anyway`);
    if (s.warmupSeconds > 0 && attempt === 0) await runWrk(target.url, script, connections, s.warmupSeconds, s.loadCore);
    const run = await measuredRun(target, connections, script, s);
    if (!best || run.foreignCores < best.foreignCores) best = run;
    if (run.foreignCores <= FOREIGN_LIMIT_CORES) break;
    s.progress(`${target.name} @${connections}: ${run.foreignCores.toFixed(2)} cores of foreign load during the run${attempt < RETRIES ? ', again' : ', keeping the cleanest'}`);
  }
  return best as LoadRun;
}

async function measuredRun(target: RunningTarget, connections: number, script: string, s: LoadSettings): Promise<LoadRun> {
  const foreign = new ForeignLoad(s.benchPids());
  const server0 = cpuSeconds(target.serverPid);
  const fleet0 = cpuSeconds(s.fleet.child.pid);
  const run = await runWrk(target.url, script, connections, s.measureSeconds, s.loadCore);
  const server1 = cpuSeconds(target.serverPid);
  const fleet1 = cpuSeconds(s.fleet.child.pid);
  const foreignCores = foreign.cores();
  if (run.errors > 0) throw new Error(`${target.name}: ${run.errors} failed requests at ${connections} connections; not a valid measurement`);
  const perRequest = (seconds: number) => (run.requests > 0 ? (seconds * 1e6) / run.requests : Number.NaN);
  s.progress(
    `${target.name} @${connections}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50Ms.toFixed(3)} ms, ${perRequest(server1 - server0).toFixed(1)} µs CPU/request, foreign ${foreignCores.toFixed(2)} cores`,
  );
  return {
    connections,
    requests: run.requests,
    rps: run.rps,
    p50Ms: run.p50Ms,
    p99Ms: run.p99Ms,
    serverCpuUsPerRequest: perRequest(server1 - server0),
    fleetCpuUsPerRequest: perRequest(fleet1 - fleet0),
    foreignCores,
  };
}

export function medianOfRuns(runs: LoadRun[]): LoadResult {
  const first = runs[0];
  if (!first) throw new Error('medianOfRuns: no runs');
  const med = (pick: (r: LoadRun) => number) => median(runs.map(pick));
  return {
    connections: first.connections,
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    rps: med((r) => r.rps),
    p50Ms: med((r) => r.p50Ms),
    p99Ms: med((r) => r.p99Ms),
    serverCpuUsPerRequest: med((r) => r.serverCpuUsPerRequest),
    fleetCpuUsPerRequest: med((r) => r.fleetCpuUsPerRequest),
    foreignCores: Math.max(...runs.map((r) => r.foreignCores)),
    runs,
  };
}
