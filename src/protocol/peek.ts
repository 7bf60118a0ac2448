// Reading a field or two out of a completion's bytes without parsing the whole answer: on
// the request path a full JSON.parse of every reply (and the garbage it leaves) costs more
// than the rest of the relay. Used only where the full object is not needed.
import type { Usage } from './types.js';

const QUOTE = 0x22;
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

/** The `usage` object (it holds no strings with braces), parsed alone. */
export function peekUsage(body: Buffer): Usage | null {
  const at = body.lastIndexOf(USAGE);
  if (at === -1) return null;
  const open = body.indexOf(OPEN_BRACE, at);
  if (open === -1) return null;
  let depth = 0;
  for (let i = open; i < body.length; i++) {
    if (body[i] === OPEN_BRACE) depth++;
    else if (body[i] === CLOSE_BRACE && --depth === 0) {
      try {
        return JSON.parse(body.toString('utf8', open, i + 1)) as Usage;
      } catch {
        return null;
      }
    }
  }
  return null;
}
