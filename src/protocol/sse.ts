// Server-sent events, as OpenAI-compatible servers stream chat completions: events are
// separated by a blank line, each `data:` line adds to the event's data, `:` lines are
// comments (OpenRouter's ": OPENROUTER PROCESSING" keep-alives).
import { StringDecoder } from 'node:string_decoder';

export interface SseEvent {
  /** The joined `data:` lines, or null for an event that carried none (comments only). */
  data: string | null;
}

/**
 * Incremental reader: feed it chunks as they arrive and take the events they completed one at
 * a time with next(), or all at once with push(). One at a time lets a relay stop at the first
 * token without parsing the rest of a chunk that holds a whole answer.
 */
export class SseReader {
  #decoder = new StringDecoder('utf8');
  #text = '';
  #pos = 0;
  /** Where the next CRLF blank line is at or after #pos: -1 none in #text, -2 not looked for yet. */
  #crlf = -2;

  /** Adds a chunk; the events it completes come out of next(). */
  feed(chunk: Buffer | string): void {
    const more = typeof chunk === 'string' ? chunk : this.#decoder.write(chunk);
    this.#text = this.#pos === 0 ? this.#text + more : this.#text.slice(this.#pos) + more;
    this.#pos = 0;
    this.#crlf = -2;
  }

  /** The next complete event, or null until more is fed. */
  next(): SseEvent | null {
    const text = this.#text;
    const lf = text.indexOf('\n\n', this.#pos);
    // Servers separate events with LF or with CRLF, rarely both: the CRLF search is done once
    // per chunk unless one is found, not once per event (which scanned the chunk's rest each time).
    if (this.#crlf === -2 || (this.#crlf !== -1 && this.#crlf < this.#pos)) this.#crlf = text.indexOf('\r\n\r\n', this.#pos);
    const crlf = this.#crlf;
    if (lf === -1 && crlf === -1) return null;
    const useCrlf = crlf !== -1 && (lf === -1 || crlf < lf);
    const at = useCrlf ? crlf : lf;
    const event = parseEvent(text, this.#pos, at);
    this.#pos = at + (useCrlf ? 4 : 2);
    if (this.#pos >= text.length) {
      this.#text = '';
      this.#pos = 0;
      this.#crlf = -1; // the cached position belonged to the text just dropped
    }
    return event;
  }

  /** Feeds a chunk and returns every event it completed. */
  push(chunk: Buffer | string): SseEvent[] {
    this.feed(chunk);
    const events: SseEvent[] = [];
    for (let event = this.next(); event !== null; event = this.next()) events.push(event);
    return events;
  }

  /** Whatever is left when the stream ends: an event not closed by a blank line. */
  end(): SseEvent[] {
    const rest = this.#text.slice(this.#pos) + this.#decoder.end();
    this.#text = '';
    this.#pos = 0;
    return rest.trim() ? [parseEvent(rest, 0, rest.length)] : [];
  }
}

/** The event in text[start, end): its `data:` lines joined. */
function parseEvent(text: string, start: number, end: number): SseEvent {
  // The usual event is one `data: …` line: no split, one slice.
  const newline = text.indexOf('\n', start);
  if (newline === -1 || newline >= end) {
    const line = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
    return { data: line.startsWith('data:') ? dataOf(line) : null };
  }
  let data: string | null = null;
  for (const rawLine of text.slice(start, end).split('\n')) {
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
