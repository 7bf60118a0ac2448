// A streamed chat completion event's data, read as a chunk. An upstream can send JSON that is
// not a chunk (`null`, an array, `"choices": [null]`, a delta that is a string): read as one,
// it would throw inside Warden and come out as Warden's own 500, when it is the upstream's
// garbage and the attempt should fall back like any other invalid answer.
import { isPlainObject } from './body.js';
import type { ChatCompletionChunk } from './types.js';

/** Pure: the chunk, or null when `data` is not JSON or not shaped as a chunk where Warden reads one. */
export function parseChunk(data: string): ChatCompletionChunk | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  return isChunkShaped(parsed) ? parsed : null;
}

function isChunkShaped(value: unknown): value is ChatCompletionChunk {
  if (!isPlainObject(value)) return false;
  const choices = value.choices;
  if (choices === undefined || choices === null) return true;
  if (!Array.isArray(choices)) return false;
  for (const choice of choices) {
    if (!isPlainObject(choice)) return false;
    const delta = choice.delta;
    if (delta === undefined || delta === null) continue;
    if (!isPlainObject(delta)) return false;
    const content = delta.content;
    if (content !== undefined && content !== null && typeof content !== 'string') return false;
  }
  return true;
}
