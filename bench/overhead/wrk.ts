// Non-streaming load with wrk: one thread, N keep-alive connections, a Lua script that POSTs
// the JSON body. wrk runs pinned next to the fleet so the proxy under test has its core alone.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx/3xx answers plus socket errors: a run with any is not a valid measurement. */
  errors: number;
}

/** Writes the POST script for one request body; returns its path. */
export function writePostScript(dir: string, name: string, body: string): string {
  const file = join(dir, `post-${name}.lua`);
  // A Lua long string ([==[ ]==]) takes the JSON as it is, quotes and all.
  writeFileSync(file, `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [==[${body}]==]\n`);
  return file;
}

export function runWrk(url: string, script: string, connections: number, seconds: number, core: number): Promise<WrkResult> {
  const args = ['-c', String(core), 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, url];
  return new Promise((resolve, reject) => {
    // Bounded: wrk's own duration plus a generous margin for start and its timeouts.
    execFile('taskset', args, { timeout: (seconds + 30) * 1000, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT' || /wrk: No such file|execvp.*wrk/.test(stderr);
        reject(new Error(missing ? 'wrk is not installed: apt-get install wrk' : `wrk failed: ${error.message}\n${stderr}`));
        return;
      }
      try {
        resolve(parseWrk(stdout));
      } catch (e) {
        reject(e);
      }
    });
  });
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function duration(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text);
  if (!match) throw new Error(`wrk: cannot read the duration "${text}"`);
  return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
}

export function parseWrk(output: string): WrkResult {
  const summary = /(\d+) requests in ([\d.]+)(us|ms|s|m|h),/.exec(output);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const p50 = /^\s+50%\s+(\S+)/m.exec(output);
  const p99 = /^\s+99%\s+(\S+)/m.exec(output);
  if (!summary || !rps || !p50 || !p99) throw new Error(`wrk: unexpected output:\n${output}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requests: Number(summary[1]),
    seconds: duration(`${summary[2]}${summary[3]}`) / 1000,
    rps: Number(rps[1]),
    p50Ms: duration(p50[1] as string),
    p99Ms: duration(p99[1] as string),
    errors: (non2xx ? Number(non2xx[1]) : 0) + socketErrors,
  };
}
