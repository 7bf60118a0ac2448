// Server-sent events, as OpenAI-compatible servers stream chat completions: events are
// separated by a blank line, each `data:` line adds to the event's data, `:` lines are
// comments (OpenRouter's ": OPENROUTER PROCESSING" keep-alives).

export interface SseEvent {
  /** The joined `data:` lines, or null for an event that carried none (comments only). */
  data: string | null;
}

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);

/**
 * Incremental reader: feed it chunks as they arrive and take the events they completed one at
 * a time with next(), or all at once with push(). One at a time lets a relay stop at the first
 * token without parsing the rest of a chunk that holds a whole answer.
 *
 * It works on bytes and decodes one event at a time: a relay that commits at the first token
 * decodes and scans only the chunk's first events, not the whole answer the chunk may hold.
 * Cutting at line feeds is safe for UTF-8 (0x0A is never part of a multi-byte character), so
 * each event's bytes decode whole even when a character was split between chunks.
 */
export class SseReader {
  /** Bytes fed and not yet taken; the unread part starts at #pos. */
  #buf: Buffer = EMPTY;
  #pos = 0;
  /** Where the search for the next blank line resumes: bytes before it hold none. */
  #scan = 0;

  /** Adds a chunk; the events it completes come out of next(). */
  feed(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.#pos >= this.#buf.length) {
      this.#buf = bytes;
      this.#pos = 0;
      this.#scan = 0;
      return;
    }
    // Part of an event is waiting: keep it in front of the new bytes.
    this.#buf = Buffer.concat([this.#buf.subarray(this.#pos), bytes]);
    this.#scan -= this.#pos;
    this.#pos = 0;
  }

  /** The next complete event, or null until more is fed. */
  next(): SseEvent | null {
    const buf = this.#buf;
    const start = this.#pos;
    const lf = blankLineAt(buf, Math.max(start, this.#scan));
    if (lf === -1) {
      this.#scan = resumeAt(buf, start);
      return null;
    }
    const event = parseEvent(buf.toString('utf8', start, eventEnd(buf, start, lf)));
    this.#pos = afterBlankLine(buf, lf);
    this.#scan = this.#pos;
    if (this.#pos >= buf.length) this.#release();
    return event;
  }

  /** Feeds a chunk and returns every event it completed. */
  push(chunk: Buffer | string): SseEvent[] {
    this.feed(chunk);
    const events: SseEvent[] = [];
    for (let event = this.next(); event !== null; event = this.next()) events.push(event);
    return events;
  }

  /** The bytes fed and not yet taken as events (a view, not a copy). */
  unread(): Buffer {
    return this.#buf.subarray(this.#pos);
  }

  /** Whatever is left when the stream ends: an event not closed by a blank line. */
  end(): SseEvent[] {
    const rest = this.#buf.toString('utf8', this.#pos);
    this.#release();
    return rest.trim() ? [parseEvent(rest)] : [];
  }

  #release(): void {
    this.#buf = EMPTY;
    this.#pos = 0;
    this.#scan = 0;
  }
}

/**
 * The line feed that ends an event's last line, searching from `from`: a blank line follows it,
 * a line feed (LF framing) or CR LF (CRLF framing). -1 when `buf` holds no whole blank line yet.
 */
export function blankLineAt(buf: Buffer, from: number): number {
  for (let lf = buf.indexOf(LF, from); lf !== -1; lf = buf.indexOf(LF, lf + 1)) if (opensBlankLine(buf, lf)) return lf;
  return -1;
}

/** Whether a blank line follows the line feed at `lf` (LF, or CR LF). */
export const opensBlankLine = (buf: Buffer, lf: number): boolean => buf[lf + 1] === LF || (buf[lf + 1] === CR && buf[lf + 2] === LF);

/** Whether the line feed at `lf` ends a blank line: the one before it is LF, or LF CR. */
export const closesBlankLine = (buf: Buffer, lf: number): boolean => buf[lf] === LF && (buf[lf - 1] === LF || (buf[lf - 1] === CR && buf[lf - 2] === LF));

/**
 * Where the search for a blank line resumes once more bytes come: only a line feed in the last
 * two bytes can still turn out to start one (its LF or CR LF not here yet).
 */
export const resumeAt = (buf: Buffer, start: number): number => Math.max(start, buf.length - 2);

/** The end of the text of the event that starts at `start` and whose last line ends at `lf`. */
export const eventEnd = (buf: Buffer, start: number, lf: number): number => (lf > start && buf[lf - 1] === CR ? lf - 1 : lf);

/** Where the next event starts, past the blank line after `lf`. */
export const afterBlankLine = (buf: Buffer, lf: number): number => (buf[lf + 1] === LF ? lf + 2 : lf + 3);

/** The event's text (without its blank line): its `data:` lines joined. */
export function parseEvent(text: string): SseEvent {
  // The usual event is one `data: …` line: no split.
  if (text.indexOf('\n') === -1) {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    return { data: line.startsWith('data:') ? dataOf(line) : null };
  }
  let data: string | null = null;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (!line.startsWith('data:')) continue;
    const value = dataOf(line);
    data = data === null ? value : `${data}\n${value}`;
  }
  return { data };
}

/** A `data:` line's value: one optional space after the colon is not part of it. */
const dataOf = (line: string) => (line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));

export const SSE_DONE = 'data: [DONE]\n\n';

export function sseData(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}
