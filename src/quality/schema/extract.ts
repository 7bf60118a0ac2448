// Finding the JSON in a reply, and saying how it was wrapped: bare, in a code fence, inside
// prose, cut off, or not there at all. Strict roles need to know the wrapping, lenient ones
// the value.

export type Extracted =
  | { kind: 'bare'; value: unknown }
  | { kind: 'fence' | 'prose'; value: unknown; wrapper: string }
  | { kind: 'invalid'; error: string; truncated: boolean; start: string }
  | { kind: 'none' };

const FENCED = /```[ \t]*(?:json5?|javascript|js)?[ \t]*\n([\s\S]*?)\n?[ \t]*```/i;

export function extractJson(text: string): Extracted {
  const trimmed = text.trim();
  const first = trimmed[0];
  if (first === '{' || first === '[') {
    const bare = parse(trimmed);
    if (bare.ok) return { kind: 'bare', value: bare.value };
    const end = balancedEnd(trimmed, 0);
    if (end > 0) {
      const head = parse(trimmed.slice(0, end));
      if (head.ok) return { kind: 'prose', value: head.value, wrapper: trimmed.slice(end).trim() };
    }
    return { kind: 'invalid', error: bare.error, truncated: end < 0, start: trimmed.slice(0, 40) };
  }
  const fence = FENCED.exec(trimmed);
  if (fence) {
    const inner = parse((fence[1] ?? '').trim());
    const outside = (trimmed.slice(0, fence.index) + trimmed.slice(fence.index + fence[0].length)).trim();
    if (inner.ok) return outside ? { kind: 'prose', value: inner.value, wrapper: outside } : { kind: 'fence', value: inner.value, wrapper: '```' };
    return { kind: 'invalid', error: inner.error, truncated: balancedEnd((fence[1] ?? '').trim(), 0) < 0, start: (fence[1] ?? '').trim().slice(0, 40) };
  }
  const open = trimmed.search(/[{[]/);
  if (open < 0) return { kind: 'none' };
  const end = balancedEnd(trimmed, open);
  if (end < 0) {
    const tail = parse(trimmed.slice(open));
    return tail.ok ? { kind: 'prose', value: tail.value, wrapper: trimmed.slice(0, open).trim() } : { kind: 'invalid', error: tail.error, truncated: true, start: trimmed.slice(open, open + 40) };
  }
  const inner = parse(trimmed.slice(open, end));
  if (!inner.ok) return { kind: 'none' };
  return { kind: 'prose', value: inner.value, wrapper: `${trimmed.slice(0, open)} … ${trimmed.slice(end)}`.trim() };
}

function parse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** Index just past the bracket that closes the one at `start`, or -1 when it never closes. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
