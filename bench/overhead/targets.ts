// The three things under test, each started as its own pinned process for one phase:
// `direct` is the fleet itself, `minimal` the bare proxy, `warden` the gateway.
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { heldConnections, LOAD_CONNECTIONS, UPSTREAM_BODIES, WARDEN_BODIES, type Bodies } from './fixtures.js';
import type { TargetName } from './options.js';
import { freePort } from './ports.js';
import type { Child, ProcessSet } from './processes.js';

const WARDEN_CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const MINIMAL_PROXY = fileURLToPath(new URL('../minimal-proxy.js', import.meta.url));

/** `load`: the instant provider, for wrk and first-token; `held`: the slow one, for memory. */
export type Phase = 'load' | 'held';

export interface Environment {
  procs: ProcessSet;
  simUrl: string;
  simPid: number;
  wardenConfig: string;
  /** The same config on a Redis store; null when the run has no warden-redis target. */
  wardenRedisConfig: string | null;
  /** The core the proxy under test runs on, alone. */
  proxyCore: number;
  cpuProfileDir: string | null;
  /** Streams the held phase opens at once; sizes the proxies' pools. */
  held: number;
}

export interface RunningTarget {
  name: TargetName;
  /** The URL clients POST chat completions to. */
  url: string;
  bodies: Bodies;
  /** The proxy's own process; null for direct, where the fleet is the server. */
  proxy: Child | null;
  /** The process whose CPU and memory stand for the target: the proxy, or the fleet for direct. */
  serverPid: number;
}

export async function startTarget(name: TargetName, phase: Phase, env: Environment): Promise<RunningTarget> {
  const provider = phase === 'load' ? 'bench' : 'slow';
  if (name === 'direct') {
    return { name, url: `${env.simUrl}/p/${provider}/v1/chat/completions`, bodies: UPSTREAM_BODIES, proxy: null, serverPid: env.simPid };
  }
  const port = await freePort();
  const profile = profileFlags(name, phase, env.cpuProfileDir);
  if (name === 'minimal') {
    const connections = phase === 'load' ? LOAD_CONNECTIONS : heldConnections(env.held);
    const proxy = env.procs.start({
      name: `minimal-${phase}`,
      core: env.proxyCore,
      command: process.execPath,
      // As many connections as Warden has for the same provider, so neither queues where the other does not.
      args: [...profile, MINIMAL_PROXY, '--upstream', `${env.simUrl}/p/${provider}/v1`, '--port', String(port), '--connections', String(connections)],
    });
    await env.procs.waitForLog(proxy, /minimal proxy on http:\/\/127\.0\.0\.1:\d+/, 15_000);
    return { name, url: `http://127.0.0.1:${port}/v1/chat/completions`, bodies: UPSTREAM_BODIES, proxy, serverPid: proxy.pid };
  }
  const config = name === 'warden-redis' ? env.wardenRedisConfig : env.wardenConfig;
  if (config === null) throw new Error('warden-redis needs a Redis: the run did not start one');
  const proxy = env.procs.start({
    name: `${name}-${phase}`,
    core: env.proxyCore,
    command: process.execPath,
    args: [...profile, WARDEN_CLI, 'start', '--config', config, '--port', String(port), '--host', '127.0.0.1'],
    env: { WARDEN_SIM_URL: env.simUrl, WARDEN_LOG_LEVEL: process.env.WARDEN_LOG_LEVEL ?? 'info' },
  });
  await waitForHealth(`http://127.0.0.1:${port}/healthz`, proxy, 30_000);
  return { name, url: `http://127.0.0.1:${port}/v1/chat/completions`, bodies: WARDEN_BODIES, proxy, serverPid: proxy.pid };
}

/** V8 CPU profile of a load-phase proxy, written when it exits cleanly (SIGTERM, then exit). */
function profileFlags(name: TargetName, phase: Phase, dir: string | null): string[] {
  if (phase !== 'load' || dir === null) return [];
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}-load.cpuprofile`];
}

/** Polls until the URL answers 200, the process dies, or the time runs out. */
async function waitForHealth(url: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | null = null;
  void child.exited.then((how) => (exited = how));
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`${child.name} exited (${exited}) before it was healthy; log ${child.log}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
      last = `status ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await sleep(100);
  }
  throw new Error(`${child.name} not healthy after ${timeoutMs} ms (${last}); log ${child.log}`);
}
