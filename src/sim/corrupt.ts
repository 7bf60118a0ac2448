// The ways a provider damages an otherwise good reply, as pure string transforms. Each
// mirrors a symptom seen from real providers, so the gateway's detectors meet real shapes.
import { pick, type Random } from './rng.js';

/** Stray starts seen in the wild: orphan markdown, closing punctuation, template tokens. */
const STRAY_PREFIXES = ['*', '"', '.', '」', ':**', ' ,', '<|im_start|>', 'ktor ', ')', '**', '</s>', 'assistant:'];

export function strayPrefix(random: Random): string {
  return pick(STRAY_PREFIXES, random);
}

// cp1252's 0x80–0x9F; the five holes become U+FFFD, as lossy decoders show them.
const CP1252_HIGH = '€\uFFFD‚ƒ„…†‡ˆ‰Š‹Œ\uFFFDŽ\uFFFD\uFFFD‘’“”•–—˜™š›œ\uFFFDžŸ';

/** UTF-8 bytes read back as Windows-1252: "café" → "cafÃ©", "’" → "â€™", "文" → "æ–‡". */
export function misdecode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte >= 0x80 && byte < 0xa0 ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  }
  return out;
}

/**
 * Mojibake over a span: the sentences after the first. Plain-ASCII text would survive
 * misdecoding unchanged, so its apostrophes become typographic first (as editors do), and a
 * U+FFFD is added when nothing else changed.
 */
export function mojibake(sentences: readonly string[], separator: string): string {
  const head = sentences.length > 1 ? sentences.slice(0, 1) : [];
  const span = (sentences.length > 1 ? sentences.slice(1) : sentences).join(separator).replace(/'/g, '’');
  let damaged = misdecode(span);
  if (damaged === span) damaged = `${span.slice(0, span.length >> 1)}\uFFFD${span.slice(span.length >> 1)}`;
  return [...head, damaged].join(separator);
}

export type BrokenJsonKind = 'truncated' | 'prose' | 'fenced' | 'missingField';
const BROKEN_JSON_KINDS: readonly BrokenJsonKind[] = ['truncated', 'prose', 'fenced', 'missingField'];

/** One of the four ways structured output goes wrong, chosen by the reply's dice. */
export function brokenJson(value: Record<string, unknown>, required: readonly string[], random: Random): string {
  const kind = pick(BROKEN_JSON_KINDS, random);
  const json = JSON.stringify(value);
  switch (kind) {
    case 'truncated':
      return json.slice(0, Math.max(1, Math.floor(json.length * 0.6)));
    case 'prose':
      return `Sure! Here is the JSON: ${json}`;
    case 'fenced':
      return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
    case 'missingField': {
      const keys = Object.keys(value);
      const victim = required.find((name) => name in value) ?? keys[0];
      const rest = { ...value };
      if (victim !== undefined) delete rest[victim];
      return JSON.stringify(rest);
    }
  }
}
