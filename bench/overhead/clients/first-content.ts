// Finds the first SSE `data:` event whose choices[0].delta.content is non-empty: the moment a
// user sees the first token. The role chunk (content "") does not count.
export class FirstContent {
  #buffer = '';
  #found = false;

  get found(): boolean {
    return this.#found;
  }

  /** Feeds bytes of the stream; returns true on the chunk that completes the first content event. */
  push(chunk: Buffer): boolean {
    if (this.#found) return false;
    this.#buffer += chunk.toString('utf8');
    let end: number;
    while ((end = this.#buffer.indexOf('\n\n')) !== -1) {
      const event = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      if (hasContent(event)) {
        this.#found = true;
        this.#buffer = '';
        return true;
      }
    }
    return false;
  }
}

interface ChunkShape {
  choices?: Array<{ delta?: { content?: unknown } }>;
}

function hasContent(event: string): boolean {
  for (const line of event.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]' || data === '') continue;
    try {
      const content = (JSON.parse(data) as ChunkShape).choices?.[0]?.delta?.content;
      if (typeof content === 'string' && content.length > 0) return true;
    } catch {
      // Not JSON: not a content event.
    }
  }
  return false;
}
