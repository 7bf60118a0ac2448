// The orchestrator's side of the client processes in bench/clients/: start one pinned to the
// load generator's core, read its answer lines, bound every wait.
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Child, ProcessSet } from './processes.js';

const SEQUENTIAL = fileURLToPath(new URL('./clients/sequential.js', import.meta.url));
const HOLD_STREAMS = fileURLToPath(new URL('./clients/hold-streams.js', import.meta.url));

export interface SequentialBatch {
  /** Milliseconds from request start to the first content event (or the answer's end), one per successful request. */
  samples: number[];
  errors: number;
  firstError: string | null;
}

/** What a sequential request is timed to: a stream's first content event, or the end of a plain answer. */
export type SequentialUntil = 'first-content' | 'answer';

export interface SequentialClient {
  /** Runs `count` requests one after another on the client's connection. */
  turn(count: number): Promise<SequentialBatch>;
  close(): Promise<void>;
}

/** A sequential client for one target, kept up for the whole phase (clients/sequential.ts). */
export function startSequentialClient(procs: ProcessSet, core: number, name: string, url: string, body: string, until: SequentialUntil): SequentialClient {
  const child = procs.start({ name: `${until}-${name}`, core, command: process.execPath, args: [SEQUENTIAL, '--url', url, '--body', body, '--until', until], stdin: true, stdout: 'pipe' });
  const lines = createInterface({ input: stdoutOf(child) });
  return {
    async turn(count) {
      child.process.stdin?.write(`${count}\n`);
      // Generous bound: even at 50 ms a request, the turn ends well inside it.
      return JSON.parse(await nextLine(child, 60_000 + count * 50, lines)) as SequentialBatch;
    },
    async close() {
      child.process.stdin?.end();
      await procs.stop(child);
    },
  };
}

export interface HeldStreams {
  open: number;
  failed: number;
  firstError: string | null;
  /** Aborts every stream and waits until the client has let go of them all. */
  release(): Promise<void>;
}

export async function holdStreams(procs: ProcessSet, core: number, name: string, url: string, body: string, count: number, timeoutSeconds: number): Promise<HeldStreams> {
  const child = procs.start({
    name: `hold-${name}`,
    core,
    command: process.execPath,
    args: [HOLD_STREAMS, '--url', url, '--body', body, '--count', String(count), '--timeout', String(timeoutSeconds)],
    stdin: true,
    stdout: 'pipe',
  });
  const lines = createInterface({ input: stdoutOf(child) });
  const ready = await nextLine(child, (timeoutSeconds + 30) * 1000, lines);
  const match = /^ready (\d+) (\d+)(?: (.*))?$/.exec(ready);
  if (!match) throw new Error(`hold-streams ${name}: unexpected answer "${ready}"`);
  return {
    open: Number(match[1]),
    failed: Number(match[2]),
    firstError: match[3] ?? null,
    async release() {
      child.process.stdin?.write('release\n');
      await nextLine(child, 30_000, lines).catch(() => undefined);
      await procs.stop(child);
    },
  };
}

function stdoutOf(child: Child): NodeJS.ReadableStream {
  const out = child.process.stdout;
  if (!out) throw new Error(`${child.name} has no stdout pipe`);
  return out;
}

/** The child's next stdout line; fails if it exits first or the time runs out. */
function nextLine(child: Child, timeoutMs: number, lines = createInterface({ input: stdoutOf(child) })): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`${child.name}: no answer after ${timeoutMs} ms (log ${child.log})`)), timeoutMs);
    const onLine = (line: string) => done(null, line);
    const onExit = () => done(new Error(`${child.name} exited without an answer (log ${child.log})`));
    const done = (error: Error | null, line?: string) => {
      clearTimeout(timer);
      lines.off('line', onLine);
      lines.off('close', onExit);
      if (error) reject(error);
      else resolve(line as string);
    };
    lines.on('line', onLine);
    lines.on('close', onExit);
  });
}
