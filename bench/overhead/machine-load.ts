// Other people's work on the same two cores (a build, a test suite) moves every figure here by
// tens of percent. This tells how busy the machine is apart from the bench: a quiet gate before
// each measurement, and an estimate of foreign CPU during it.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { clockTicks, cpuSeconds } from './proc-stats.js';

/** CPU seconds spent in user and system mode by every process on the machine, and wall time. */
interface MachineSample {
  busySeconds: number;
  at: number;
}

function sampleMachine(): MachineSample {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  // cpu  user nice system idle iowait irq softirq steal ...: interrupts are left out on both
  // sides, since process utime/stime (what the bench can attribute) do not contain them.
  const [user, nice, system] = line.trim().split(/\s+/).slice(1, 4).map(Number);
  return { busySeconds: ((user ?? 0) + (nice ?? 0) + (system ?? 0)) / clockTicks(), at: performance.now() };
}

/** CPU seconds of this process plus its reaped children (wrk, once it has exited). */
function ownSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return ((f[11] ?? 0) + (f[12] ?? 0) + (f[13] ?? 0) + (f[14] ?? 0)) / clockTicks();
}

/** Measures foreign CPU (in cores) over a window in which the given processes do the bench's work. */
export class ForeignLoad {
  #machine = sampleMachine();
  #own = ownSeconds();
  #start: Map<number, number>;

  constructor(pids: number[]) {
    this.#start = readPids(pids);
  }

  /** Cores' worth of CPU used by processes that are not the bench's since construction. */
  cores(): number {
    const machine = sampleMachine();
    const now = readPids([...this.#start.keys()]);
    let ours = ownSeconds() - this.#own;
    for (const [pid, seconds] of now) ours += seconds - (this.#start.get(pid) ?? seconds);
    const elapsed = (machine.at - this.#machine.at) / 1000;
    return elapsed > 0 ? Math.max(0, (machine.busySeconds - this.#machine.busySeconds - ours) / elapsed) : 0;
  }
}

/** CPU seconds per pid; a process that has gone is left out rather than failing the run. */
function readPids(pids: number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of new Set(pids)) {
    try {
      seconds.set(pid, cpuSeconds(pid));
    } catch {
      // Exited between listing and reading.
    }
  }
  return seconds;
}

/**
 * Waits, up to `maxWaitMs`, for a one-second window in which the machine is no busier than
 * `threshold` cores apart from the bench's idle servers. Returns the last window's load.
 */
export async function waitForQuiet(pids: number[], threshold: number, maxWaitMs: number): Promise<number> {
  const deadline = performance.now() + maxWaitMs;
  let load = Number.POSITIVE_INFINITY;
  do {
    const window = new ForeignLoad(pids);
    await sleep(1000);
    load = window.cores();
  } while (load > threshold && performance.now() < deadline);
  return load;
}
