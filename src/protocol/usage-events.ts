// A stream's usage chunk that Warden asked for and the client did not. Without
// stream_options.include_usage an upstream sends no usage on a stream, so Warden asks for it
// on the client's behalf (the tokens and the cost of streamed traffic would go uncounted
// otherwise) and takes the answer out again before the client reads it: a client that did not
// ask does not expect a last chunk with no choices (`chunk.choices[0].delta` would throw).
import { parseChunk } from './chunk.js';
import { peekUsage } from './peek.js';
import type { Usage } from './types.js';

const USAGE_KEY = Buffer.from('"usage"');
const BLANK_LINE = /\r?\n\r?\n/;

const LF = 0x0a;
const CR = 0x0d;

/**
 * Where the last usage object (`"usage": {`, not the `"usage": null` some upstreams put in every
 * chunk) starts; -1 for none. Searched from the end, where a stream's usage chunk is: a forward
 * search for `"usage"` through an 8 KB chunk of JSON, quotes everywhere, took 7 µs, and it runs
 * before the chunk's first token reaches the client.
 */
function usageObjectAt(bytes: Buffer): number {
  for (let at = bytes.lastIndexOf(USAGE_KEY); at !== -1; at = at === 0 ? -1 : bytes.lastIndexOf(USAGE_KEY, at - 1)) {
    let i = at + USAGE_KEY.length;
    while (i < bytes.length && (bytes[i]! <= 0x20 || bytes[i] === 0x3a)) i++;
    if (bytes[i] === 0x7b) return at;
  }
  return -1;
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
  if (at === -1) return -1;
  // Back from the key to the blank line before its event: a short way, byte by byte (a
  // lastIndexOf for a two-byte needle scanned the whole chunk, 8 µs on an 8 KB one).
  for (let i = at - 1; i > 0; i--) {
    if (events[i] === LF && (events[i - 1] === LF || (events[i - 1] === CR && events[i - 2] === LF))) return i + 1;
  }
  return 0;
}
/**
 * Pure: whole SSE events with their usage taken out — an event that carried only the usage (no
 * choices) is dropped, one that also carried choices goes out without its `usage` — and the
 * usage read. Events are rewritten only when they hold a usage object; the rest stay as bytes.
 */
export function takeUsage(events: Buffer): { bytes: Buffer; usage: Usage | null } {
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
   * the rest without it. `peek`: the events are not parsed elsewhere, so read the usage here.
   */
  relay(events: Buffer, write: (bytes: Buffer) => void, peek: boolean): void {
    const at = this.takeOut ? usageEventStart(events) : -1;
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
