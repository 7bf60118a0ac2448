// Where log lines go: bytes copied into 64 KiB chunks, written to a file descriptor in order.
//
// pino's own destination (sonic-boom 4) measures the UTF-8 length of its whole pending
// buffer on every line it takes, so each line costs in proportion to what is already waiting:
// about 2.7 µs per request line with an 8 KiB buffer against 0.3 µs here (measured alone, one
// pinned core, 200,000 lines), on a hot path whose whole budget is a few tens of µs.
// Each line is encoded into the current chunk at once, so its string dies young (a pending
// string of lines lived through scavenges and was copied by each); a chunk goes out when
// full or every 200 ms, one write in flight at a time, and what is left is written
// synchronously when the process exits.
import { write, writeSync } from 'node:fs';

const CHUNK_BYTES = 64 * 1024;
const FLUSH_MS = 200;
/** Beyond this a stuck reader (a full pipe nobody drains) costs lines, never memory. */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
/** A pipe full for now (EAGAIN) is tried again after this long. */
const RETRY_MS = 10;

export class LogSink {
  #chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
  #used = 0;
  /** Full chunks waiting for the write in flight, oldest first. */
  #queue: Buffer[] = [];
  #queuedBytes = 0;
  #writing = false;
  #dropped = 0;
  readonly #timer: NodeJS.Timeout;
  readonly #onExit = () => this.flushSync();

  constructor(private readonly fd: number) {
    this.#timer = setInterval(() => this.#flush(), FLUSH_MS);
    this.#timer.unref();
    process.once('exit', this.#onExit);
  }

  /** pino's destination interface: one serialised line, newline included. */
  write(line: string): boolean {
    // A UTF-16 unit takes at most 3 bytes in UTF-8: checked without measuring the line.
    const worst = line.length * 3;
    if (this.#used + worst <= CHUNK_BYTES) {
      this.#used += this.#chunk.write(line, this.#used);
      return true;
    }
    this.#flush();
    if (worst > CHUNK_BYTES) {
      // Longer than a chunk: queued as its own buffer, behind what came before it.
      const taken = this.#enqueue(Buffer.from(line));
      this.#next();
      return taken;
    }
    this.#used += this.#chunk.write(line, this.#used);
    return true;
  }

  /** Lines refused because the destination stopped taking them. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Writes everything now, blocking: for exit, and for tests that read what was logged. */
  flushSync(): void {
    // A chunk still in flight may land after these: order at exit matters less than lines.
    this.#seal();
    const chunks = this.#queue;
    this.#queue = [];
    this.#queuedBytes = 0;
    try {
      for (const chunk of chunks) writeSync(this.fd, chunk);
    } catch {
      // Nowhere left to say it: the lines are lost, the process goes on (or ends) anyway.
    }
  }

  /** Moves the current chunk to the queue, with a note of any drops; #next() starts the writing. */
  #seal(): void {
    if (this.#used > 0) {
      const full = this.#chunk.subarray(0, this.#used);
      this.#chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
      this.#used = 0;
      this.#enqueue(full);
    }
    if (this.#dropped > 0 && this.#queuedBytes < MAX_QUEUED_BYTES) {
      const note = `{"level":40,"time":${Date.now()},"msg":"log lines dropped: the log destination did not take them fast enough","dropped":${this.#dropped}}\n`;
      this.#dropped = 0;
      this.#enqueue(Buffer.from(note));
    }
  }

  #enqueue(chunk: Buffer): boolean {
    if (this.#queuedBytes + chunk.length > MAX_QUEUED_BYTES) {
      this.#dropped++;
      return false;
    }
    this.#queue.push(chunk);
    this.#queuedBytes += chunk.length;
    return true;
  }

  #flush(): void {
    this.#seal();
    this.#next();
  }

  #next(): void {
    if (this.#writing) return;
    const chunk = this.#queue.shift();
    if (chunk === undefined) return;
    this.#queuedBytes -= chunk.length;
    this.#writing = true;
    this.#send(chunk, 0);
  }

  #send(chunk: Buffer, offset: number): void {
    write(this.fd, chunk, offset, chunk.length - offset, null, (error, written) => {
      if (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          setTimeout(() => this.#send(chunk, offset), RETRY_MS).unref();
          return;
        }
        // The destination refuses (closed, disk full): this chunk is lost, later ones are tried.
        this.#writing = false;
        return this.#next();
      }
      if (offset + written < chunk.length) return this.#send(chunk, offset + written);
      this.#writing = false;
      this.#next();
    });
  }
}

let stdoutSink: LogSink | null = null;

/** The process's one sink on stdout (one exit hook however many gateways a process opens). */
export function stdoutLogSink(): LogSink {
  stdoutSink ??= new LogSink(1);
  return stdoutSink;
}
