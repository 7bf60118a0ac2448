// Matching bytes where they are, for the readers that look at JSON and SSE without decoding
// them: a plain loop, because each Buffer method here is a call into C++ that costs more than
// comparing the few bytes of a key.

/** Whether `word`'s bytes are in `buf` at `at`. */
export function bytesAt(buf: Buffer, at: number, word: Buffer): boolean {
  for (let k = 0; k < word.length; k++) if (buf[at + k] !== word[k]) return false;
  return true;
}
