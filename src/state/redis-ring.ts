// The newest audit events or ledger entries, kept locally so reads never wait on Redis.
// Loaded from the Redis list at open and on recovery, appended to on every local write.

export class Ring<T> {
  #items: T[] = [];
  /** Appends ever made: a reload keeps those made while it was in flight. */
  #appends = 0;

  constructor(private readonly keep: number) {}

  /** Oldest first. */
  get items(): readonly T[] {
    return this.#items;
  }

  /** Marks a point in time for `load`. */
  get mark(): number {
    return this.#appends;
  }

  push(item: T): void {
    this.#items.push(item);
    this.#appends++;
    if (this.#items.length > this.keep) this.#items.splice(0, this.#items.length - this.keep);
  }

  /**
   * Appends another instance's item unless one of the newest `window` is the same (by JSON).
   * Its notice can arrive after a reload whose read already held it: the list push and the
   * notice are separate commands, and a read on another connection can fall between them.
   * False when it was already there.
   */
  pushUnlessRecent(item: T, window = 256): boolean {
    const json = JSON.stringify(item);
    for (let i = this.#items.length - 1, seen = 0; i >= 0 && seen < window; i--, seen++) {
      if (JSON.stringify(this.#items[i]) === json) return false;
    }
    this.push(item);
    return true;
  }

  /** Newest first, as the Store interface wants; `limit` 0 gives none. */
  newest(limit: number, keepIf: (item: T) => boolean = () => true): T[] {
    const out: T[] = [];
    for (let i = this.#items.length - 1; i >= 0 && out.length < limit; i--) {
      const item = this.#items[i]!;
      if (keepIf(item)) out.push(item);
    }
    return out;
  }

  /**
   * Replaces the contents with a Redis list (LRANGE, newest first), followed by what was
   * appended here since `mark` and is not in the list: a local write sent after the read, or
   * another instance's event announced while the read was in flight (which the list may or
   * may not already hold, so it is matched by its JSON). Returns entries that would not parse.
   */
  load(newestFirst: string[], mark: number): number {
    const since = Math.min(this.#items.length, this.#appends - mark);
    const out: T[] = [];
    let bad = 0;
    for (let i = newestFirst.length - 1; i >= 0; i--) {
      try {
        out.push(JSON.parse(newestFirst[i]!) as T);
      } catch {
        bad++;
      }
    }
    if (since > 0) {
      const listed = new Set(newestFirst);
      for (const item of this.#items.slice(-since)) if (!listed.has(JSON.stringify(item))) out.push(item);
    }
    this.#items = out.length > this.keep ? out.slice(-this.keep) : out;
    return bad;
  }
}
