// A stream's usage chunk that Warden asked for and the client did not. Without
// stream_options.include_usage an upstream sends no usage on a stream, so Warden asks for it
// on the client's behalf (the tokens and the cost of streamed traffic would go uncounted
// otherwise) and takes the answer out again before the client reads it: a client that did not
// ask does not expect a last chunk with no choices (`chunk.choices[0].delta` would throw).
// An upstream that sends running usage on every chunk has every one taken out, not just the last.
import { parseChunk } from './chunk.js';
import { bytesAt } from './bytes.js';
import { peekUsage } from './peek.js';
import { afterBlankLine, closesBlankLine, eventEnd, opensBlankLine } from './sse.js';
import type { Usage } from './types.js';

const USAGE_KEY = Buffer.from('"usage"');
const BLANK_LINE = /\r?\n\r?\n/;

const LF = 0x0a;

/**
 * Where the last usage object (`"usage": {`, not the `"usage": null` some upstreams put in every
 * chunk) starts; -1 for none. Searched from the end, where a stream's usage chunk is: a forward
 * search for `"usage"` through an 8 KB chunk of JSON, quotes everywhere, took 7 µs, and it runs
 * before the chunk's first token reaches the client.
 */
function usageObjectAt(bytes: Buffer): number {
  for (let at = bytes.lastIndexOf(USAGE_KEY); at !== -1; at = at === 0 ? -1 : bytes.lastIndexOf(USAGE_KEY, at - 1)) {
    if (opensObject(bytes, at + USAGE_KEY.length)) return at;
  }
  return -1;
}

/** Whether an object follows from `i`, past blanks and the colon. */
function opensObject(bytes: Buffer, i: number): boolean {
  return bytes[pastBlanksAndColon(bytes, i)] === 0x7b;
}

/** The first byte from `i` that is neither a blank nor a colon (a key's colon, the blanks around a value). */
function pastBlanksAndColon(bytes: Buffer, i: number): number {
  while (i < bytes.length && (bytes[i]! <= 0x20 || bytes[i] === 0x3a)) i++;
  return i;
}

/** Whether `bytes` hold a usage object. */
export function holdsUsageObject(bytes: Buffer): boolean {
  return usageObjectAt(bytes) !== -1;
}

/**
 * Where the event holding the last usage object begins in whole SSE events, or -1 without one:
 * the events before it go out as they are, unparsed (the usage chunk is a stream's last but [DONE]).
 */
export function usageEventStart(events: Buffer): number {
  const at = usageObjectAt(events);
  return at === -1 ? -1 : eventStart(events, at - 1);
}

/**
 * Where the event holding byte `i` begins: back to the blank line before it, a short way, byte
 * by byte (a lastIndexOf for a two-byte needle scanned the whole chunk, 8 µs on an 8 KB one).
 */
function eventStart(events: Buffer, i: number): number {
  for (; i > 0; i--) if (closesBlankLine(events, i)) return i + 1;
  return 0;
}

/**
 * Where the usage Warden asked for starts in whole SSE events: the last usage object's event,
 * or the first event when the one before it holds usage too. An upstream that sends running
 * usage (vLLM's continuous_usage_stats) puts it on every chunk, so the event before the last
 * usage tells it apart from the common stream, whose one usage chunk follows a finish chunk
 * without: one short event looked at, not the whole read searched again.
 */
function takenFrom(events: Buffer): number {
  const at = usageEventStart(events);
  return at > 0 && eventBeforeHoldsUsage(events, at) ? 0 : at;
}

const QUOTE = 0x22;

/**
 * Whether the event that ends where the next begins (`next`) holds a usage object: one loop back
 * to its blank line, matching the key at each quote (a subarray and a lastIndexOf cost 0.6 µs,
 * three times this walk, on a 150-byte event).
 */
function eventBeforeHoldsUsage(events: Buffer, next: number): boolean {
  // From before the blank line that ends it (`\n\n` or `\r\n\r\n`).
  for (let i = next - 3; i > 0; i--) {
    if (closesBlankLine(events, i)) return false;
    if (events[i] === QUOTE && bytesAt(events, i, USAGE_KEY) && opensObject(events, i + USAGE_KEY.length)) return true;
  }
  return false;
}

/**
 * Pure: whole SSE events with their usage taken out — an event that carried only the usage (no
 * choices) is dropped, one that also carried choices goes out without its `usage` — and the
 * usage read. Events are rewritten only when they hold a usage object; the rest stay as bytes.
 */
export function takeUsage(events: Buffer): { bytes: Buffer; usage: Usage | null } {
  const usageOnly = takeUsageOnlyEvent(events);
  if (usageOnly !== null) return usageOnly;
  let usage: Usage | null = null;
  const text = events.toString('utf8');
  const parts = text.split(BLANK_LINE);
  const out: string[] = [];
  for (let k = 0; k < parts.length; k++) {
    const event = parts[k]!;
    const last = k === parts.length - 1;
    if (!event.includes('"usage"') || usageObjectAt(Buffer.from(event)) === -1) {
      out.push(last ? event : `${event}\n\n`);
      continue;
    }
    const data = event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(line[5] === ' ' ? 6 : 5)).join('\n');
    const chunk = parseChunk(data);
    if (chunk === null || typeof chunk.usage !== 'object' || chunk.usage === null) {
      out.push(last ? event : `${event}\n\n`);
      continue;
    }
    usage = chunk.usage;
    delete chunk.usage;
    if (Array.isArray(chunk.choices) && chunk.choices.length > 0) out.push(`data: ${JSON.stringify(chunk)}\n\n`);
  }
  return { bytes: Buffer.from(out.join('')), usage };
}

const DATA = Buffer.from('data:');
const CHOICES_KEY = Buffer.from('"choices"');

/**
 * The common case of takeUsage on bytes alone: the first event is one `data:` line whose chunk
 * has no choices (`"choices":[]`, what OpenAI and vLLM send for the usage Warden asked for) and
 * no later event holds usage, so the event is dropped and its usage peeked. Null for anything
 * else, which takeUsage parses. Parsing the event, splitting the text and re-encoding it cost
 * about 18,000 instructions a stream (callgrind), a twentieth of Warden's work on one.
 */
function takeUsageOnlyEvent(events: Buffer): { bytes: Buffer; usage: Usage | null } | null {
  if (!bytesAt(events, 0, DATA)) return null;
  // The blank line ending the event must follow its one line at once.
  const lf = events.indexOf(LF);
  if (lf === -1 || !opensBlankLine(events, lf)) return null;
  const event = events.subarray(0, eventEnd(events, 0, lf));
  if (!hasNoChoices(event)) return null;
  const rest = events.subarray(afterBlankLine(events, lf));
  if (usageObjectAt(rest) !== -1) return null;
  const usage = peekUsage(event);
  return usage === null ? null : { bytes: rest, usage };
}

/** Whether the chunk's `choices` is an empty array (whitespace allowed). */
function hasNoChoices(event: Buffer): boolean {
  const at = event.indexOf(CHOICES_KEY);
  if (at === -1) return false;
  let i = pastBlanksAndColon(event, at + CHOICES_KEY.length);
  if (event[i] !== 0x5b) return false;
  i = pastBlanksAndColon(event, i + 1);
  return event[i] === 0x5d;
}

/**
 * A stream's usage as its events go to the client: read off the bytes of a stream relayed raw,
 * and taken out before the client reads it when Warden asked for it on the client's behalf.
 */
export class RelayedUsage {
  usage: Usage | null = null;

  /** `takeOut`: Warden asked for usage the client did not (attempt-payload.ts wardenAsksUsage). */
  constructor(private readonly takeOut: boolean) {}

  /**
   * Sends whole `events` through `write`: as they are, or the events before the usage and then
   * the rest without it (every usage object out of them, the last one kept: running usage is a
   * running total, not a part). `peek`: the events are not parsed elsewhere, so read the usage here.
   */
  relay(events: Buffer, write: (bytes: Buffer) => void, peek: boolean): void {
    const at = this.takeOut ? takenFrom(events) : -1;
    if (at === -1) {
      write(events);
      if (peek && !this.takeOut) this.usage = peekUsage(events) ?? this.usage;
      return;
    }
    write(events.subarray(0, at));
    const taken = takeUsage(events.subarray(at));
    this.usage = taken.usage ?? this.usage;
    write(taken.bytes);
  }
}
