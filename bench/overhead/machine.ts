// What the numbers were measured on: they only compare within one machine and one run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, release } from 'node:os';

export interface Machine {
  date: string;
  cpuModel: string;
  cores: number;
  node: string;
  kernel: string;
  /** The commit measured, with `+dirty` when the tree had uncommitted changes. */
  commit: string;
}

export function describeMachine(repoDir: string): Machine {
  const cpuinfo = safe(() => readFileSync('/proc/cpuinfo', 'utf8'), '');
  return {
    date: new Date().toISOString(),
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    node: process.version,
    kernel: release(),
    commit: safe(() => {
      const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: repoDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
      return dirty ? `${head}+dirty` : head;
    }, 'unknown'),
  };
}

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
