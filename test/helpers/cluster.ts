// Several gateway instances sharing one Redis, each with its own store connection, the way
// separate processes would be: in this process, so they can share an injected clock; and as
// real child processes (`warden start`), for the tests that kill one.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { parseConfig } from '../../src/config/index.js';
import { openGateway, type Gateway } from '../../src/gateway.js';
import type { Clock } from '../../src/clock/index.js';
import { RedisStore } from '../../src/state/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { parseScenario, startFleet, type Fleet } from '../../src/sim/index.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { CLI } from './paths.js';

export interface Instance {
  name: string;
  gateway: Gateway;
  store: RedisStore;
  url: string;
  client: OpenAI;
}

/**
 * `n` gateways on one Redis under a fresh key prefix; `configYaml` must not name a state section.
 * The store's deadlines on Redis (250 ms for a probe slot's answer, 2 s for a command) are hang
 * guards here, not what these tests check: on a loaded machine a healthy Redis can miss them, and
 * an instance would then skip its probe or go degraded and probe alone. The tests that check
 * those deadlines (test/state/redis-faults.test.ts) set their own.
 */
export async function startInstances(n: number, redisUrl: string, configYaml: string, clock?: Clock): Promise<Instance[]> {
  const prefix = `warden-test-${randomUUID().slice(0, 8)}:`;
  const log = createLogger({ level: 'silent' });
  const instances: Instance[] = [];
  for (let i = 0; i < n; i++) {
    const config = parseConfig(`${configYaml}\nstate: { redis: "${redisUrl}" }\n`, 'test', {});
    const store = await RedisStore.open({ url: redisUrl, prefix, log, commandTimeoutMs: 20_000, coordinationAnswerMs: 20_000 });
    const gateway = await openGateway(config, { store, log, clock, processMetrics: false, canarySchedule: false });
    const url = await gateway.listen(0, '127.0.0.1');
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 20_000 });
    instances.push({ name: String.fromCharCode(65 + i), gateway, store, url, client });
  }
  return instances;
}

/** What every cluster test stands on: a redis-server, the simulated fleet and `n` gateways on both. */
export interface Cluster {
  redis: RedisServer;
  fleet: Fleet;
  nodes: Instance[];
  /** Gateways first, then the fleet and Redis. */
  close(): Promise<void>;
}

/** `config` gets the started fleet (for its URLs) and must not name a state section. */
export async function startCluster(n: number, scenario: unknown, config: (fleet: Fleet) => string, clock?: Clock): Promise<Cluster> {
  const redis = await startRedis();
  let fleet: Fleet | null = null;
  const nodes: Instance[] = [];
  const close = async () => {
    for (const node of nodes) await node.gateway.close();
    await fleet?.close();
    await redis.close();
  };
  try {
    fleet = await startFleet({ scenario: parseScenario(scenario), port: 0 });
    nodes.push(...(await startInstances(n, redis.url, config(fleet), clock)));
    return { redis, fleet, nodes, close };
  } catch (e) {
    await close();
    throw e;
  }
}

export interface Process {
  readonly url: string;
  readonly child: ChildProcess;
  /** Every line the process printed so far. */
  readonly lines: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** `warden start` as a child process; resolves once it logs the URL it listens on. */
export async function startProcess(configYaml: string, env: Record<string, string> = {}): Promise<Process> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-proc-'));
  const file = join(dir, 'warden.yaml');
  writeFileSync(file, configYaml);
  const child = spawn(process.execPath, [CLI, 'start', '--config', file, '--port', '0'], {
    env: { ...process.env, WARDEN_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffered = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        lines.push(line);
        if (line.includes('warden listening')) resolve((JSON.parse(line) as { url: string }).url);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`warden start exited with ${code}:\n${lines.join('\n')}`)));
  });
  return {
    url,
    child,
    lines,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill(signal);
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
