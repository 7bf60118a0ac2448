// The simulated provider fleet for the whole run, pinned next to the load generator.
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports.js';
import type { Child, ProcessSet } from './processes.js';

const WARDEN_CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface Fleet {
  url: string;
  child: Child;
}

export async function startFleet(procs: ProcessSet, scenario: string, core: number): Promise<Fleet> {
  const port = await freePort();
  const child = procs.start({ name: 'sim', core, command: process.execPath, args: [WARDEN_CLI, 'sim', '--scenario', scenario, '--port', String(port)] });
  const line = await procs.waitForLog(child, /simulated fleet on (http:\/\/127\.0\.0\.1:\d+)/, 30_000);
  return { url: line.slice(line.indexOf('http')), child };
}

async function openStreams(url: string): Promise<number> {
  const res = await fetch(`${url}/sim/stats`, { signal: AbortSignal.timeout(5000) });
  const stats = (await res.json()) as { openStreams?: unknown };
  if (typeof stats.openStreams !== 'number') throw new Error('sim: /sim/stats has no openStreams');
  return stats.openStreams;
}

/**
 * Waits until the fleet holds no streams, so one phase's leftovers never weigh on the next.
 * Returns how many were still open when the wait gave up (0 when clean).
 */
export async function waitForNoStreams(fleet: Fleet, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let open = await openStreams(fleet.url);
  while (open > 0 && Date.now() < deadline) {
    await sleep(200);
    open = await openStreams(fleet.url);
  }
  return open;
}
