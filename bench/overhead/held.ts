// Memory with many streams held open: a fresh process of the target, its RSS read before and
// while the client holds the streams against the slow provider.
import { setTimeout as sleep } from 'node:timers/promises';
import { holdStreams } from './client-runs.js';
import { waitForNoStreams, type Fleet } from './fleet.js';
import type { TargetName } from './options.js';
import { rssBytes } from './proc-stats.js';
import { startTarget, type Environment } from './targets.js';

export interface HeldResult {
  /** Whose memory this is: the proxy's, or the fleet's for direct. */
  process: 'proxy' | 'fleet';
  requested: number;
  open: number;
  failed: number;
  firstError: string | null;
  rssBeforeBytes: number;
  rssWithBytes: number;
  bytesPerStream: number;
}

/** How long things settle before memory is read: buffers and the heap catch up. */
const SETTLE_MS = 1000;
/** How long the client may take to open every stream. */
const OPEN_TIMEOUT_S = 180;

export async function measureHeld(name: TargetName, count: number, env: Environment, fleet: Fleet, loadCore: number, progress: (m: string) => void): Promise<HeldResult> {
  const leftover = await waitForNoStreams(fleet, 30_000);
  if (leftover > 0) throw new Error(`the fleet still holds ${leftover} streams from an earlier phase`);
  const target = await startTarget(name, 'held', env);
  try {
    await sleep(SETTLE_MS);
    const rssBeforeBytes = rssBytes(target.serverPid);
    progress(`${name}: holding ${count} streams open`);
    const held = await holdStreams(env.procs, loadCore, name, target.url, target.bodies.held, count, OPEN_TIMEOUT_S);
    let rssWithBytes: number;
    try {
      await sleep(SETTLE_MS);
      rssWithBytes = rssBytes(target.serverPid);
    } finally {
      await held.release();
    }
    if (held.open < count) {
      throw new Error(`${name}: only ${held.open} of ${count} streams opened (${held.failed} failed: ${held.firstError ?? 'timeout'})`);
    }
    progress(`${name}: RSS ${(rssBeforeBytes / 1048576).toFixed(1)} → ${(rssWithBytes / 1048576).toFixed(1)} MiB`);
    return {
      process: target.proxy ? 'proxy' : 'fleet',
      requested: count,
      open: held.open,
      failed: held.failed,
      firstError: held.firstError,
      rssBeforeBytes,
      rssWithBytes,
      bytesPerStream: (rssWithBytes - rssBeforeBytes) / held.open,
    };
  } finally {
    if (target.proxy) await env.procs.stop(target.proxy, 15_000);
    // Closing the proxy closes its upstream streams; wait so the next phase starts clean.
    await waitForNoStreams(fleet, 30_000);
  }
}
