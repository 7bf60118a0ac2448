// Instructions per request, counted by valgrind's callgrind: the minimal proxy and Warden each
// run under callgrind, serve a warm-up uncounted, then a counted batch of the same requests.
// The bench's CPU per request swings by tens of percent with this VM's mood between windows a
// minute apart; an instruction count does not (the same build gives the same count within a
// few percent, whatever else the machine is doing), so this is the figure to compare builds by.
// It counts instructions, not time: cache misses, the kernel's share of each request (the
// same sockets and syscalls for both proxies) and other threads are not in it.
//   npm run bench:instructions -- [--stream] [--warmup N] [--requests N] [--reps N] [--connections N] [--out DIR]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readDump, type MainThreadCount } from './instructions/annotate.js';
import { LOAD_CONNECTIONS, UPSTREAM_BODIES, WARDEN_BODIES, writeFixtures } from './overhead/fixtures.js';
import { startFleet } from './overhead/fleet.js';
import { freePort } from './overhead/ports.js';
import { ProcessSet, type Child } from './overhead/processes.js';

const WARDEN_CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const MINIMAL_PROXY = fileURLToPath(new URL('./minimal-proxy.js', import.meta.url));
const COUNTED_CLIENT = fileURLToPath(new URL('./overhead/clients/counted.js', import.meta.url));
const PROXY_CORE = 0;
const LOAD_CORE = cpus().length > 1 ? 1 : 0;
/** Under valgrind a Node process starts in tens of seconds, not one. */
const START_TIMEOUT_MS = 180_000;

type Target = 'minimal' | 'warden';

interface Sample {
  target: Target;
  rep: number;
  requests: number;
  /** Per request, main thread: the request phases (the figure compared), and everything. */
  requestPhases: number;
  total: number;
}

const { values } = parseArgs({
  options: {
    warmup: { type: 'string', default: '30000' },
    requests: { type: 'string', default: '2000' },
    reps: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    out: { type: 'string', default: 'bench/results' },
    // Streaming requests (the bench provider's 40-token answer as SSE, read to its end) instead of plain ones.
    stream: { type: 'boolean', default: false },
  },
});
const stream = values.stream === true;
const kind = stream ? 'stream' : 'plain';
const warmup = positive('warmup', values.warmup);
const requests = positive('requests', values.requests);
const reps = positive('reps', values.reps);
const connections = positive('connections', values.connections);

function positive(name: string, text: string | undefined): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`--${name} must be a positive integer, got "${text}"\n`);
    process.exit(64);
  }
  return n;
}

function progress(message: string): void {
  process.stderr.write(`[instructions] ${message}\n`);
}

/** Whether the three programs are installed (callgrind_annotate --version exits 255, so only a missing program counts). */
function hasValgrind(): boolean {
  return ['valgrind', 'callgrind_control', 'callgrind_annotate'].every((program) => spawnSync(program, ['--version'], { stdio: 'ignore' }).error === undefined);
}

/** One line to the client, its one-line answer back. */
function talker(client: Child): (count: number) => Promise<{ ok: number; failed: number; firstError: string | null }> {
  const lines = createInterface({ input: client.process.stdout! })[Symbol.asyncIterator]();
  return async (count) => {
    client.process.stdin!.write(`${count}\n`);
    const next = await lines.next();
    if (next.done) throw new Error(`${client.name} ended without answering; log ${client.log}`);
    return JSON.parse(next.value as string) as { ok: number; failed: number; firstError: string | null };
  };
}

async function waitForHttp(url: string, child: Child): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited: string | null = null;
  void child.exited.then((how) => (exited = how));
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`${child.name} exited (${exited}) before answering; log ${child.log}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      return;
    } catch {
      await sleep(500);
    }
  }
  throw new Error(`${child.name} did not answer within ${START_TIMEOUT_MS / 1000} s; log ${child.log}`);
}

async function measure(procs: ProcessSet, workDir: string, fleetUrl: string, config: string, target: Target, rep: number): Promise<Sample> {
  const port = await freePort();
  const dumpBase = join(workDir, `${target}-${rep}.callgrind`);
  const program =
    target === 'minimal'
      ? [MINIMAL_PROXY, '--upstream', `${fleetUrl}/p/bench/v1`, '--port', String(port), '--connections', String(LOAD_CONNECTIONS)]
      : [WARDEN_CLI, 'start', '--config', config, '--port', String(port), '--host', '127.0.0.1'];
  // Instrumentation off until the warm-up is over: valgrind then runs the process several
  // times faster, and V8 reaches its steady state (tiers, inline caches) before anything counts.
  const proxy = procs.start({
    name: `${target}-${rep}`,
    core: PROXY_CORE,
    command: 'valgrind',
    args: ['--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', `--callgrind-out-file=${dumpBase}.%p`, process.execPath, ...program],
    env: { WARDEN_SIM_URL: fleetUrl, WARDEN_LOG_LEVEL: process.env.WARDEN_LOG_LEVEL ?? 'info' },
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(target === 'warden' ? `${base}/healthz` : `${base}/`, proxy);
  const body = (target === 'warden' ? WARDEN_BODIES : UPSTREAM_BODIES)[kind];
  const client = procs.start({
    name: `${target}-${rep}-client`,
    core: LOAD_CORE,
    command: process.execPath,
    args: [COUNTED_CLIENT, '--url', `${base}/v1/chat/completions`, '--body', body, '--connections', String(connections)],
    stdin: true,
    stdout: 'pipe',
  });
  try {
    const send = talker(client);
    const warm = await send(warmup);
    if (warm.failed > 0) throw new Error(`${target}: ${warm.failed} of the warm-up requests failed (${warm.firstError}); log ${proxy.log}`);
    execFileSync('callgrind_control', ['--instr=on', String(proxy.pid)], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--zero', String(proxy.pid)], { stdio: 'ignore' });
    const counted = await send(requests);
    if (counted.failed > 0) throw new Error(`${target}: ${counted.failed} of the counted requests failed (${counted.firstError}); log ${proxy.log}`);
    execFileSync('callgrind_control', ['--dump=measured', String(proxy.pid)], { stdio: 'ignore' });
  } finally {
    client.process.stdin!.end();
    await procs.stop(client);
    await procs.stop(proxy, 30_000);
  }
  // The dump asked for is part 1; the file ending -01 is the main thread's.
  const file = readdirSync(workDir).find((f) => f.startsWith(`${target}-${rep}.callgrind.${proxy.pid}.1-01`));
  if (!file) throw new Error(`${target}: no callgrind dump of the main thread in ${workDir}`);
  const main: MainThreadCount = readDump(join(workDir, file));
  return { target, rep, requests, requestPhases: main.requestPhases / requests, total: main.total / requests };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function render(samples: Sample[]): string {
  const of = (t: Target) => samples.filter((s) => s.target === t);
  const thousands = (n: number) => `${(n / 1000).toFixed(1)}k`;
  const rows = (['minimal', 'warden'] as const).map((t) => {
    const s = of(t);
    return `| ${t} | ${s.map((x) => thousands(x.requestPhases)).join(', ')} | ${s.map((x) => thousands(x.total)).join(', ')} |`;
  });
  const ratio = median(of('warden').map((s) => s.requestPhases)) / median(of('minimal').map((s) => s.requestPhases));
  return [
    `Instructions per ${stream ? 'streamed' : 'plain'} request on the main thread (callgrind; ${warmup} warm-up requests uncounted, then ${requests} counted, ${connections} connections; one figure per repetition):`,
    '',
    '| target | request phases | whole main thread (timers included) |',
    '|---|---:|---:|',
    ...rows,
    '',
    `warden / minimal, request phases (medians): ${ratio.toFixed(2)}`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  if (!hasValgrind()) {
    process.stderr.write('bench:instructions needs valgrind (callgrind, callgrind_control, callgrind_annotate): apt-get install valgrind\n');
    process.exit(2);
  }
  const workDir = mkdtempSync(join(tmpdir(), 'warden-instructions-'));
  const procs = new ProcessSet(workDir);
  const stop = () => {
    procs.killAllNow();
    process.exit(130);
  };
  process.once('SIGINT', stop);
  try {
    const files = writeFixtures(workDir, 0, null);
    const fleet = await startFleet(procs, files.scenario, LOAD_CORE);
    progress(`fleet on ${fleet.url}; dumps and logs in ${workDir}`);
    const samples: Sample[] = [];
    for (let rep = 1; rep <= reps; rep++) {
      // Alternating order, so neither target always runs first on a fresh fleet.
      const order: Target[] = rep % 2 === 1 ? ['minimal', 'warden'] : ['warden', 'minimal'];
      for (const target of order) {
        progress(`${target}, repetition ${rep} of ${reps}: ${warmup} warm-up requests, then ${requests} counted`);
        const sample = await measure(procs, workDir, fleet.url, files.config, target, rep);
        progress(`${target}: ${Math.round(sample.requestPhases)} instructions per request in the request phases`);
        samples.push(sample);
      }
    }
    await procs.stopAll();
    const markdown = render(samples);
    const outDir = resolve(values.out!);
    mkdirSync(outDir, { recursive: true });
    const name = stream ? 'instructions-stream' : 'instructions';
    writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify({ kind, warmup, requests, connections, samples }, null, 2)}\n`);
    writeFileSync(join(outDir, `${name}.md`), markdown);
    process.stdout.write(`\n${markdown}\nwritten to ${join(outDir, `${name}.md`)} and ${name}.json\n`);
  } catch (e) {
    await procs.stopAll();
    throw e;
  }
}

await main();
