// Checks a chat completion stream event by event on its bytes, for a relay that forwards bytes
// as they come: only whole events that look like chunks go out. The check is structural — a
// data event must hold `[DONE]` or something from `{` to `}` — because a parse per event is what
// relaying raw bytes exists to avoid. It catches what breaks streams in practice (an event cut
// short, an HTML page, a proxy's plain-text error); `{not json}` would pass.
import { bytesAt } from './bytes.js';
import { afterBlankLine, blankLineAt, eventEnd, parseEvent, resumeAt } from './sse.js';

const DATA = Buffer.from('data:');
const DONE = Buffer.from('[DONE]');
/** An OpenAI-style error event starts its object with the `error` key. */
const ERROR_KEY = Buffer.from('"error"');
const SPACE = 0x20;
const OPEN = 0x7b;
const CLOSE = 0x7d;

export class SseEventCheck {
  /** The start of an event not closed by its blank line yet, copied from an earlier chunk. */
  #rest: Buffer | null = null;
  /** A `data: [DONE]` event went through. */
  sawDone = false;
  /** An error object went through as an event of its own (`data: {"error": …}`). */
  sawError = false;
  /** The data of the first event that failed, for the error message; null while all passed. */
  bad: string | null = null;

  /**
   * The bytes to relay now: the complete events of the chunk (and of what was kept from the
   * last), up to the first that fails — then `bad` is set. An event not yet closed by its blank
   * line is kept for the next chunk: a client cannot use it before that either.
   */
  take(chunk: Buffer): Buffer {
    const rest = this.#rest;
    const buf = rest === null ? chunk : Buffer.concat([rest, chunk]);
    this.#rest = null;
    let pos = 0;
    for (let lf = blankLineAt(buf, rest === null ? 0 : resumeAt(rest, 0)); lf !== -1; lf = blankLineAt(buf, pos)) {
      if (!this.#passes(buf, pos, eventEnd(buf, pos, lf))) return buf.subarray(0, pos);
      pos = afterBlankLine(buf, lf);
    }
    if (pos === buf.length) return buf;
    // A copy: a slice would keep the whole chunk it came in alive while the stream waits.
    this.#rest = Buffer.from(buf.subarray(pos));
    return buf.subarray(0, pos);
  }

  /** At the end of the stream: what was kept, when it passes as the last event (a stream may end without a blank line). */
  end(): Buffer {
    const rest = this.#rest;
    this.#rest = null;
    if (rest === null) return Buffer.alloc(0);
    let end = rest.length;
    while (end > 0 && (rest[end - 1] === 0x0a || rest[end - 1] === 0x0d)) end--;
    return end === 0 || this.#passes(rest, 0, end) ? rest : Buffer.alloc(0);
  }

  /** Whether the event's text (`buf` from `start` to `end`) passes; the usual one, a single `data:` line, is read on its bytes. */
  #passes(buf: Buffer, start: number, end: number): boolean {
    if (bytesAt(buf, start, DATA)) {
      const value = buf[start + 5] === SPACE ? start + 6 : start + 5;
      if (buf[value] === OPEN && buf[end - 1] === CLOSE) {
        if (!this.sawError && bytesAt(buf, value + 1, ERROR_KEY)) this.sawError = true;
        return true;
      }
      if (end - value === DONE.length && bytesAt(buf, value, DONE)) return (this.sawDone = true);
    }
    return this.#passesDecoded(buf.toString('utf8', start, end));
  }

  /** Anything else (comments, several lines, trailing blanks, garbage) is decoded first. */
  #passesDecoded(text: string): boolean {
    const data = parseEvent(text).data?.trim() ?? null;
    if (data === null || data === '') return true;
    if (data === '[DONE]') return (this.sawDone = true);
    if (data.startsWith('{') && data.endsWith('}')) {
      if (/^\{\s*"error"/.test(data)) this.sawError = true;
      return true;
    }
    this.bad = data;
    return false;
  }
}
