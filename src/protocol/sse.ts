// Server-sent events, as OpenAI-compatible servers stream chat completions: events are
// separated by a blank line, each `data:` line adds to the event's data, `:` lines are
// comments (OpenRouter's ": OPENROUTER PROCESSING" keep-alives).
import { StringDecoder } from 'node:string_decoder';

export interface SseEvent {
  /** The joined `data:` lines, or null for an event that carried none (comments only). */
  data: string | null;
}

/** Incremental reader: feed it chunks as they arrive, get back the events they completed. */
export class SseReader {
  #decoder = new StringDecoder('utf8');
  #carry = '';

  push(chunk: Buffer | string): SseEvent[] {
    const text = this.#carry + (typeof chunk === 'string' ? chunk : this.#decoder.write(chunk));
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const boundary = findBoundary(text, start);
      if (boundary === null) break;
      events.push(parseEvent(text.slice(start, boundary.at)));
      start = boundary.at + boundary.length;
    }
    this.#carry = text.slice(start);
    return events;
  }

  /** Whatever is left when the stream ends: an event not closed by a blank line. */
  end(): SseEvent[] {
    const rest = this.#carry + this.#decoder.end();
    this.#carry = '';
    return rest.trim() ? [parseEvent(rest)] : [];
  }
}

function findBoundary(text: string, from: number): { at: number; length: number } | null {
  const lf = text.indexOf('\n\n', from);
  const crlf = text.indexOf('\r\n\r\n', from);
  if (lf === -1 && crlf === -1) return null;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { at: crlf, length: 4 };
  return { at: lf, length: 2 };
}

function parseEvent(block: string): SseEvent {
  let data: string | null = null;
  for (const rawLine of block.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (!line.startsWith('data:')) continue;
    const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
    data = data === null ? value : `${data}\n${value}`;
  }
  return { data };
}

export const SSE_DONE = 'data: [DONE]\n\n';

export function sseData(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}
