// Child processes of a bench run: each pinned to a core, its output in a log file (so a
// chatty child never blocks on a pipe the orchestrator is too busy to read), and all of them
// killed at the end, on error and on SIGINT.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Child {
  name: string;
  pid: number;
  log: string;
  process: ChildProcess;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<string>;
}

export interface SpawnSpec {
  name: string;
  /** The core to pin the process to, through taskset (which execs, so the pid is the program's). */
  core: number;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Pipe stdin so the orchestrator can talk to the child (the stream-holding client). */
  stdin?: boolean;
  /** Keep stdout as a pipe for a child whose answer is its output (the clients). */
  stdout?: 'pipe' | 'log';
}

export class ProcessSet {
  #children = new Set<Child>();

  constructor(private readonly logDir: string) {}

  start(spec: SpawnSpec): Child {
    const log = join(this.logDir, `${spec.name}.log`);
    const fd = openSync(log, 'a');
    const child = spawn('taskset', ['-c', String(spec.core), spec.command, ...spec.args], {
      env: { ...process.env, ...spec.env },
      stdio: [spec.stdin ? 'pipe' : 'ignore', spec.stdout === 'pipe' ? 'pipe' : fd, fd],
    });
    closeSync(fd);
    if (child.pid === undefined) throw new Error(`could not start ${spec.name} (${spec.command})`);
    const exited = new Promise<string>((resolve) => {
      child.once('exit', (code, signal) => resolve(signal ?? String(code)));
      child.once('error', (e) => resolve(`error: ${e.message}`));
    });
    const entry: Child = { name: spec.name, pid: child.pid, log, process: child, exited };
    this.#children.add(entry);
    void exited.then(() => this.#children.delete(entry));
    return entry;
  }

  /** Waits until the child's log matches `ready`; fails fast if the child dies first. */
  async waitForLog(child: Child, ready: RegExp, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let died: string | null = null;
    void child.exited.then((how) => (died = how));
    while (Date.now() < deadline) {
      const text = readFileSync(child.log, 'utf8');
      const match = ready.exec(text);
      if (match) return match[0];
      if (died !== null) throw new Error(`${child.name} exited (${died}) before it was ready; log ${child.log}:\n${tail(text)}`);
      await sleep(50);
    }
    throw new Error(`${child.name} not ready after ${timeoutMs} ms; log ${child.log}:\n${tail(readFileSync(child.log, 'utf8'))}`);
  }

  /** Pids of every child still running: the bench's own CPU, when telling it from others'. */
  pids(): number[] {
    return [...this.#children].map((c) => c.pid);
  }

  /**
   * Freezes the given children (SIGSTOP) while `measure` runs, then thaws them: the proxies
   * are all pinned to one core, and an idle one is not idle enough — its timers, and above
   * all the heap-shrinking collections V8 runs a few seconds after a load stops, land in the
   * next target's measured window. Warden on Redis, measured right after Warden on SQLite in
   * every round, paid for the SQLite process's collections that way.
   */
  async frozen<T>(children: readonly Child[], measure: () => Promise<T>): Promise<T> {
    const live = children.filter((c) => this.#children.has(c));
    for (const c of live) c.process.kill('SIGSTOP');
    try {
      return await measure();
    } finally {
      for (const c of live) if (this.#children.has(c)) c.process.kill('SIGCONT');
    }
  }

  /** SIGTERM, then SIGKILL for whoever is still there after the grace period. */
  async stop(child: Child, graceMs = 5000): Promise<void> {
    if (!this.#children.has(child)) return;
    // A frozen child would hold SIGTERM until thawed.
    child.process.kill('SIGCONT');
    child.process.kill('SIGTERM');
    const gone = await Promise.race([child.exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!gone) {
      child.process.kill('SIGKILL');
      await Promise.race([child.exited, sleep(2000)]);
    }
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.#children].map((c) => this.stop(c)));
  }

  /** Synchronous last resort for process exit paths where nothing async runs any more. */
  killAllNow(): void {
    for (const c of this.#children) c.process.kill('SIGKILL');
  }
}

function tail(text: string, lines = 20): string {
  return text.split('\n').slice(-lines).join('\n');
}
