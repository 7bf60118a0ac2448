// Top self-time functions of a V8 .cpuprofile (from `node --cpu-prof`), to see where a proxy's
// CPU goes. Also a command: node dist/bench/overhead/profile-top.js FILE.cpuprofile [N]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface SelfTime {
  name: string;
  where: string;
  ms: number;
  share: number;
}

export function topSelfTime(file: string, count = 15, includeIdle = false): SelfTime[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  // Sample i lasted until sample i+1: its time is the next delta (microseconds).
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const longest = longestSampleUs(deltas);
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] as number;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.min(deltas[i + 1] ?? 0, longest));
  }
  const byFunction = new Map<string, SelfTime>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) continue;
    const name = frame.functionName || '(anonymous)';
    if (!includeIdle && name === '(idle)') continue;
    total += us;
    const where = frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : '';
    const key = `${name} ${where}`;
    const entry = byFunction.get(key) ?? { name, where, ms: 0, share: 0 };
    entry.ms += us / 1000;
    byFunction.set(key, entry);
  }
  const ranked = [...byFunction.values()].sort((a, b) => b.ms - a.ms).slice(0, count);
  for (const e of ranked) e.share = total > 0 ? (e.ms * 1000) / total : 0;
  return ranked;
}

/**
 * The longest a sample can have lasted. The bench freezes the proxies it is not measuring
 * (SIGSTOP), the profiler's thread with them, so the sample taken on waking spans the whole
 * frozen spell: uncapped, those gaps charged tens of seconds to whatever function was on the
 * stack then (events.emit, net's lookupAndConnect) and drowned the real profile.
 */
export function longestSampleUs(deltas: readonly number[]): number {
  const sorted = deltas.filter((d) => d > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return 10 * (sorted[Math.floor(sorted.length / 2)] as number);
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
  const dist = url.lastIndexOf('/dist/');
  return dist !== -1 ? url.slice(dist + 1) : url.replace(/^file:\/\//, '');
}

/** Self time summed by where the code lives: a Warden file, an npm package, Node, or native. */
export function selfTimeBySource(file: string, count = 12): SelfTime[] {
  const rows = topSelfTime(file, Number.MAX_SAFE_INTEGER);
  const bySource = new Map<string, SelfTime>();
  for (const r of rows) {
    const name = sourceOf(r);
    const entry = bySource.get(name) ?? { name, where: '', ms: 0, share: 0 };
    entry.ms += r.ms;
    entry.share += r.share;
    bySource.set(name, entry);
  }
  return [...bySource.values()].sort((a, b) => b.ms - a.ms).slice(0, count);
}

function sourceOf(r: SelfTime): string {
  if (r.where.startsWith('dist/')) return r.where.slice(0, r.where.lastIndexOf(':'));
  if (r.where.startsWith('node:')) return 'node internals';
  if (r.where === '' || r.where.startsWith('wasm:')) return r.name.startsWith('(') ? r.name : '(native: syscalls, llhttp)';
  const parts = r.where.split('/');
  return `npm ${parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
}

export function renderTop(rows: SelfTime[], label = 'function'): string {
  const lines = [`| self ms | share | ${label} | where |`, '|---:|---:|---|---|'];
  for (const r of rows) lines.push(`| ${r.ms.toFixed(0)} | ${(r.share * 100).toFixed(1)}% | ${r.name} | ${r.where} |`);
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, count] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: profile-top FILE.cpuprofile [N]\n');
    process.exit(64);
  }
  process.stdout.write(renderTop(topSelfTime(file, count ? Number(count) : 25)));
}
