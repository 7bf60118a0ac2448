// Reading a field or two out of a completion's bytes without parsing the whole answer: on
// the request path a full JSON.parse of every reply (and the garbage it leaves) costs more
// than the rest of the relay. Used only where the full object is not needed.
import { bytesAt } from './bytes.js';
import type { Usage } from './types.js';

const QUOTE = 0x22;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
// Needles as buffers once: a string needle is converted on every search.
const CHOICES = Buffer.from('"choices"');
const USAGE = Buffer.from('"usage"');
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** A JSON object that mentions `choices`: what a chat completion at least looks like. */
export function looksLikeCompletion(body: Buffer): boolean {
  let start = 0;
  while (start < body.length && body[start]! <= 0x20) start++;
  let end = body.length - 1;
  while (end > start && body[end]! <= 0x20) end--;
  return body[start] === OPEN_BRACE && body[end] === CLOSE_BRACE && body.includes(CHOICES);
}

/** The string value of a top-level-looking `"name": "value"` pair, or null. */
export function peekString(body: Buffer, name: string): string | null {
  const at = body.indexOf(`"${name}"`);
  if (at === -1) return null;
  let i = at + name.length + 2;
  while (i < body.length && (body[i]! <= 0x20 || body[i] === 0x3a)) i++;
  if (body[i] !== QUOTE) return null;
  const end = body.indexOf(QUOTE, i + 1);
  return end === -1 ? null : body.toString('utf8', i + 1, end);
}

/**
 * The token counts of the `usage` object, read in one pass over its bytes: JSON.parse of the
 * object alone (with the string it needs) cost about 1.3 µs a request in the bench profile.
 * Nested objects (`prompt_tokens_details`) and keys other than the three counts are skipped;
 * a count that is not a plain non-negative integer reads as absent.
 */
export function peekUsage(body: Buffer): Usage | null {
  const at = body.lastIndexOf(USAGE);
  if (at === -1) return null;
  let i = at + USAGE.length;
  while (i < body.length && (body[i]! <= 0x20 || body[i] === COLON)) i++;
  if (body[i] !== OPEN_BRACE) return null;
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  let depth = 0;
  let found = false;
  for (; i < body.length; i++) {
    const c = body[i]!;
    if (c === OPEN_BRACE) depth++;
    else if (c === CLOSE_BRACE) {
      if (--depth === 0) return found ? usage : null;
    } else if (c === QUOTE) {
      const keyStart = i + 1;
      i = closingQuote(body, keyStart);
      if (i === -1) return null;
      if (depth !== 1) continue;
      const key = keyOf(body, keyStart, i);
      if (key === null) continue;
      let j = i + 1;
      while (j < body.length && (body[j]! <= 0x20 || body[j] === COLON)) j++;
      let value = 0;
      let digits = 0;
      while (j < body.length && body[j]! >= 0x30 && body[j]! <= 0x39) {
        value = value * 10 + body[j]! - 0x30;
        digits++;
        j++;
      }
      if (digits > 0) {
        usage[key] = value;
        found = true;
      }
      i = j - 1;
    }
  }
  return null;
}

/**
 * The quote that ends the string starting at `from`, past escaped ones; -1 when none does.
 * A plain loop: the strings here are short keys, and each Buffer.indexOf is a call into C++
 * that costs more than walking twenty bytes.
 */
function closingQuote(body: Buffer, from: number): number {
  for (let i = from; i < body.length; i++) {
    const c = body[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

type CountKey = 'prompt_tokens' | 'completion_tokens' | 'total_tokens';
const COUNT_KEYS: ReadonlyArray<[CountKey, Buffer]> = (['prompt_tokens', 'completion_tokens', 'total_tokens'] as const).map((k) => [k, Buffer.from(k)]);

/** Which of the three counts the key between `start` and `end` names. */
function keyOf(body: Buffer, start: number, end: number): CountKey | null {
  for (const [key, bytes] of COUNT_KEYS) if (bytes.length === end - start && bytesAt(body, start, bytes)) return key;
  return null;
}

const FINISH_REASON = Buffer.from('"finish_reason"');
const DONE_MARKER = Buffer.from('[DONE]');
const NULL_START = 0x6e; // n

/**
 * Whether stream bytes not yet parsed hold an answer's end: a `[DONE]`, or a `finish_reason`
 * that is not null. Bytes only, no decoding: a relay asks it once, at the first token, to learn
 * whether the whole answer is already here. A false yes (the marker quoted in some text) only
 * makes the relay parse on before it writes; a `"finish_reason"` inside a JSON string is
 * escaped (`\"`) and never matches.
 */
export function holdsAnswerEnd(bytes: Buffer): boolean {
  if (bytes.includes(DONE_MARKER)) return true;
  for (let at = bytes.indexOf(FINISH_REASON); at !== -1; at = bytes.indexOf(FINISH_REASON, at + FINISH_REASON.length)) {
    let i = at + FINISH_REASON.length;
    while (i < bytes.length && (bytes[i]! <= 0x20 || bytes[i] === COLON)) i++;
    if (i < bytes.length && bytes[i] !== NULL_START) return true;
  }
  return false;
}
