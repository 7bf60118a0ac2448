// Re-targeting a request body without re-serialising it: when the only change Warden makes
// is the `model` name, the client's bytes are reused with that one value replaced. On a long
// conversation this saves a JSON.stringify of the whole history per attempt.
import { bytesAt } from './bytes.js';
import { jsonNameBytes } from './json-names.js';

const MODEL_KEY = Buffer.from('"model"');

/**
 * The body with its top-level `"model": "<from>"` value replaced by `to`, or null when that
 * cannot be done safely (the key appears more than once, or not in the plain form).
 */
export function spliceModel(raw: Buffer, from: string, to: string): Buffer | null {
  const at = raw.indexOf(MODEL_KEY);
  if (at === -1 || raw.indexOf(MODEL_KEY, at + MODEL_KEY.length) !== -1) return null;
  let i = at + MODEL_KEY.length;
  while (i < raw.length && raw[i]! <= 0x20) i++;
  if (raw[i] !== 0x3a) return null;
  i++;
  while (i < raw.length && raw[i]! <= 0x20) i++;
  const value = jsonNameBytes(from);
  if (i + value.length > raw.length) return null;
  if (!bytesAt(raw, i, value)) return null;
  const replacement = jsonNameBytes(to);
  const out = Buffer.allocUnsafe(raw.length - value.length + replacement.length);
  raw.copy(out, 0, 0, i);
  replacement.copy(out, i);
  raw.copy(out, i + replacement.length, i + value.length);
  return out;
}

/**
 * The body with `field` (a `"key":value` pair's JSON bytes) added as the first member of its
 * top-level object, or null when the body does not start as an object. The caller makes sure
 * the key is not there already.
 */
export function spliceField(raw: Buffer, field: Buffer): Buffer | null {
  let open = 0;
  while (open < raw.length && raw[open]! <= 0x20) open++;
  if (raw[open] !== 0x7b) return null;
  let next = open + 1;
  while (next < raw.length && raw[next]! <= 0x20) next++;
  if (next >= raw.length) return null;
  const empty = raw[next] === 0x7d;
  return Buffer.concat([raw.subarray(0, open + 1), field, empty ? Buffer.alloc(0) : COMMA, raw.subarray(open + 1)]);
}

const COMMA = Buffer.from(',');
