// One complete overhead run: the fleet, then direct, minimal and warden (load phases alternating
// between them, memory one after another), each server in its own pinned process; writes
// bench/results/latest.{json,md} and prints the table.
// Exits 0 whatever the verdicts; non-zero only when something broke.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFleet, type Fleet } from './overhead/fleet.js';
import { writeFixtures } from './overhead/fixtures.js';
import { freePort } from './overhead/ports.js';
import { describeMachine } from './overhead/machine.js';
import { measureAll } from './overhead/measure.js';
import { parseOptions, USAGE, type BenchOptions } from './overhead/options.js';
import { preflight } from './overhead/preflight.js';
import { ProcessSet } from './overhead/processes.js';
import { renderTop, selfTimeBySource, topSelfTime } from './overhead/profile-top.js';
import { derive } from './overhead/report.js';
import { renderMarkdown } from './overhead/table.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const WARDEN_CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
// As FINDINGS did: the proxy alone on core 0; fleet, wrk and client processes on core 1.
const PROXY_CORE = 0;
const LOAD_CORE = cpus().length > 1 ? 1 : 0;

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function run(options: BenchOptions, procs: ProcessSet, workDir: string): Promise<void> {
  const redisUrl = options.targets.includes('warden-redis') ? await startRedis(procs, options, workDir) : null;
  const files = writeFixtures(workDir, options.held, redisUrl);
  preflight(WARDEN_CLI, files.config, options.targets.includes('warden'));
  if (options.cpuProfileDir) progress(`profiling the proxies into ${options.cpuProfileDir}: they run slower, read the ratios with care`);
  if (LOAD_CORE === PROXY_CORE) progress('only one core: proxy and load share it; absolute numbers mean little');
  const machine = describeMachine(REPO);
  progress(`logs and fixtures in ${workDir}`);
  const fleet: Fleet = await startFleet(procs, files.scenario, LOAD_CORE);
  progress(`fleet on ${fleet.url}`);
  const env = { procs, simUrl: fleet.url, simPid: fleet.child.pid, wardenConfig: files.config, wardenRedisConfig: files.redisConfig, proxyCore: PROXY_CORE, cpuProfileDir: options.cpuProfileDir, held: options.held };
  const results = await measureAll({ env, fleet, options, loadCore: LOAD_CORE, scriptDir: workDir, progress });
  await procs.stopAll();

  const derived = derive(results);
  const markdown = renderMarkdown(results, derived, options, machine);
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'latest.json'), `${JSON.stringify({ machine, options, results, derived }, null, 2)}\n`);
  writeFileSync(join(options.outDir, 'latest.md'), markdown);
  process.stdout.write(`\n${markdown}\nwritten to ${join(options.outDir, 'latest.md')} and latest.json\n`);
  if (options.cpuProfileDir) printProfiles(options.cpuProfileDir);
}

/**
 * A redis-server for the warden-redis target, on the load core with the fleet (as a Redis on
 * its own host would be, it does not share the proxy's core); null, and the target dropped,
 * when none is installed.
 */
async function startRedis(procs: ProcessSet, options: BenchOptions, workDir: string): Promise<string | null> {
  if (spawnSync('redis-server', ['--version']).error) {
    progress('no redis-server: the warden-redis target is left out (apt-get install redis-server)');
    options.targets = options.targets.filter((t) => t !== 'warden-redis');
    return null;
  }
  const port = await freePort();
  const redis = procs.start({ name: 'redis', core: LOAD_CORE, command: 'redis-server', args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', workDir] });
  await procs.waitForLog(redis, /Ready to accept connections/, 15_000);
  progress(`redis-server on port ${port} for warden-redis`);
  return `redis://127.0.0.1:${port}`;
}

/** Where each proxy's CPU went during the load phase: the top self-time functions. */
function printProfiles(dir: string): void {
  for (const name of ['minimal', 'warden', 'warden-redis']) {
    const file = join(dir, `${name}-load.cpuprofile`);
    if (!existsSync(file)) {
      progress(`no ${file}: did the ${name} process exit cleanly?`);
      continue;
    }
    process.stdout.write(`\n${name}: self time during the load phase (${file})\n${renderTop(topSelfTime(file, 20))}\n${renderTop(selfTimeBySource(file), 'source')}`);
  }
}

async function main(): Promise<number> {
  let options: BenchOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2), process.env, join(REPO, 'bench', 'results'));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}`);
    return 64;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const workDir = mkdtempSync(join(tmpdir(), 'warden-bench-'));
  const procs = new ProcessSet(workDir);
  let interrupted = false;
  const interrupt = (signal: string) => {
    if (interrupted) return;
    interrupted = true;
    progress(`${signal}: stopping every child`);
    void procs.stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', () => interrupt('SIGINT'));
  process.once('SIGTERM', () => interrupt('SIGTERM'));
  process.once('exit', () => procs.killAllNow());
  try {
    await run(options, procs, workDir);
    return 0;
  } catch (e) {
    process.stderr.write(`bench failed: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await procs.stopAll();
  }
}

process.exitCode = await main();
