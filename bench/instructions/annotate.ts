// Reading callgrind's figures for one target: the instructions its main thread executed while
// serving the measured requests, told apart from what ran on timers.
import { execFileSync } from 'node:child_process';

export interface MainThreadCount {
  /** Every instruction of the main thread between the zeroing and the dump. */
  total: number;
  /**
   * The loop phases requests run in: I/O callbacks (uv__io_poll: reading a request, the
   * upstream's answer, writing back, with the microtasks and scavenges they cause) and
   * setImmediate callbacks (uv__run_check, where Node's HTTP server finishes responses).
   * Timers are left out: the dashboard's sampling, the log flush and the metrics' event-loop
   * histogram run by the clock, and under valgrind the clock runs a hundred times longer per
   * request, so they would weigh in by how slow valgrind was, not by what a request costs.
   */
  requestPhases: number;
}

const PHASES = ['uv__io_poll', 'uv__run_check'] as const;

/** The figures out of `callgrind_annotate --inclusive=yes` text (pure, for tests). */
export function parseAnnotate(text: string): MainThreadCount {
  const total = /^\s*([\d,]+)\s+\([^)]*\)\s+PROGRAM TOTALS/m.exec(text);
  if (!total) throw new Error('callgrind_annotate output has no PROGRAM TOTALS line');
  let requestPhases = 0;
  for (const phase of PHASES) {
    // A phase's inclusive line: "359,959,418 (84.50%)  /…/linux.c:uv__io_poll [/usr/bin/node]".
    const line = new RegExp(`^\\s*([\\d,]+)\\s+\\([^)]*\\)\\s+\\S*:${phase} \\[`, 'm').exec(text);
    if (line) requestPhases += count(line[1]!);
  }
  if (requestPhases === 0) throw new Error('callgrind_annotate output names neither uv__io_poll nor uv__run_check: is this a Node process?');
  return { total: count(total[1]!), requestPhases };
}

function count(digits: string): number {
  return Number(digits.replaceAll(',', ''));
}

/** Runs callgrind_annotate on one dump file and reads it. */
export function readDump(file: string): MainThreadCount {
  const text = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return parseAnnotate(text);
}
