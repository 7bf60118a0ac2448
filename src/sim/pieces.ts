// Splits reply text into the pieces a stream sends, one per SSE chunk and one per counted
// token: words with their leading space for spaced scripts, 1–2 characters for CJK and Thai.
// Joining the pieces always gives back the text exactly.

const DENSE = '\\u3000-\\u303f\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uff00-\\uffef\\u0e00-\\u0e7f';
// Dense scripts first, so a letter run never swallows them; then words (apostrophes kept
// inside), then short punctuation runs, then trailing whitespace.
const PIECE = new RegExp(
  `\\s*[${DENSE}]{1,2}|\\s*[\\p{L}\\p{M}\\p{N}_'’]+|\\s*[^\\s\\p{L}\\p{M}\\p{N}_'’]{1,3}|\\s+`,
  'gu',
);

export function splitPieces(text: string): string[] {
  return text.match(PIECE) ?? [];
}

/** Fixed-width slices, for text that is not prose (tool-call arguments). */
export function sliceEvery(text: string, width: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += width) pieces.push(text.slice(i, i + width));
  return pieces;
}
