// The Redis store's local copy of its hashes: what reads are served from. It also remembers the
// order keys were first put (Redis hashes past a few fields do not keep one, and the admin view
// lists blocks in order) and which keys were written locally after a read from Redis was asked,
// so a slow reply never overwrites a newer local write.
import type { CanaryRouteState } from '../canary/types.js';
import type { BreakerSnapshot } from '../resilience/breaker.js';
import type { HashKind } from './redis-wire.js';
import type { RuntimeBlock } from './store.js';

export type Values = { breakers: BreakerSnapshot; canary: CanaryRouteState; blocks: RuntimeBlock; settings: unknown };

/** A hash field in Redis: the value and when it was first put (µs since the epoch, unique per writer). */
interface Field {
  o: number;
  v: unknown;
}

interface Entry {
  order: number;
  value: unknown;
}

export class LocalCopy {
  readonly #maps: Record<HashKind, Map<string, Entry>> = { breakers: new Map(), canary: new Map(), blocks: new Map(), settings: new Map() };
  /** The change counter, and its value at each key's last change (a local write or a value taken from Redis). */
  #seq = 0;
  readonly #touched = new Map<string, number>();
  /** Reads from Redis asked (ask) and not yet answered: the only ones a key's last change matters to. */
  #reading = 0;
  #lastOrder = 0;

  /** Marks a point in time: a read asked now is stale for keys written after it. */
  get seq(): number {
    return this.#seq;
  }

  /** A read from Redis is asked now: its `asked` mark. Call answered() once its reply is applied or it failed. */
  ask(): number {
    this.#reading++;
    return this.#seq;
  }

  /**
   * A read asked with ask() is over. With none left in flight, every later read is asked after
   * every change so far, so no mark can make it stale: they go. Kept, they grew by one for every
   * key ever written, deleted ones too (each runtime block, shed and restore has an id of its own).
   */
  answered(): void {
    this.#reading = Math.max(0, this.#reading - 1);
    if (this.#reading === 0) this.#touched.clear();
  }

  /** How many keys' last change is remembered (bounded by the keys changed while a read was in flight). */
  get marks(): number {
    return this.#touched.size;
  }

  get<K extends HashKind>(kind: K, key: string): Values[K] | undefined {
    return this.#maps[kind].get(key)?.value as Values[K] | undefined;
  }

  values<K extends HashKind>(kind: K): Map<string, Values[K]> {
    const out = new Map<string, Values[K]>();
    for (const [key, e] of this.#maps[kind]) out.set(key, e.value as Values[K]);
    return out;
  }

  put<K extends HashKind>(kind: K, key: string, value: Values[K]): void {
    const map = this.#maps[kind];
    // A replaced key keeps its place, as a Map does.
    const order = map.get(key)?.order ?? (this.#lastOrder = Math.max(Date.now() * 1000, this.#lastOrder + 1));
    map.set(key, { order, value });
    this.touch(kind, key);
  }

  delete(kind: HashKind, key: string): boolean {
    const existed = this.#maps[kind].delete(key);
    if (existed) this.touch(kind, key);
    return existed;
  }

  /** Marks a key as written now, as a put does, without changing it (a replayed write). */
  touch(kind: HashKind, key: string): void {
    this.#touched.set(`${kind}\u0000${key}`, ++this.#seq);
  }

  /** The field to write to Redis, or null when the key is gone. Throws if the value cannot be serialised. */
  encode(kind: HashKind, key: string): string | null {
    const e = this.#maps[kind].get(key);
    return e === undefined ? null : JSON.stringify({ o: e.order, v: e.value } satisfies Field);
  }

  /**
   * Takes one field read from Redis (null: absent) unless the key was written locally after
   * `asked` or `held` says a local write is still owed to Redis. True when the copy changed.
   */
  applyField(kind: HashKind, key: string, raw: string | null, asked: number, held: (kind: HashKind, key: string) => boolean): boolean {
    return this.#apply(kind, key, raw, asked, held, true);
  }

  #apply(kind: HashKind, key: string, raw: string | null, asked: number, held: (kind: HashKind, key: string) => boolean, sort: boolean): boolean {
    if (this.#stale(kind, key, asked) || held(kind, key)) return false;
    const map = this.#maps[kind];
    if (raw === null) return map.delete(key) && this.#applied(kind, key);
    const field = decode(raw);
    const before = map.get(key);
    if (before && before.order === field.o && JSON.stringify(before.value) === JSON.stringify(field.v)) return false;
    map.set(key, { order: field.o, value: field.v });
    if (!before && sort) this.#sort(kind);
    return this.#applied(kind, key);
  }

  /**
   * A value taken from Redis is newer than any read asked before it: a reload whose reply
   * arrives later (it was sent earlier, or on the other connection's timing) must not undo it.
   */
  #applied(kind: HashKind, key: string): true {
    this.touch(kind, key);
    return true;
  }

  /** Replaces a whole kind with what Redis holds, under the same rule per key; returns the keys that changed. */
  applyAll(kind: HashKind, remote: Record<string, string>, asked: number, held: (kind: HashKind, key: string) => boolean): { changed: string[]; bad: number } {
    const changed: string[] = [];
    let bad = 0;
    for (const [key, raw] of Object.entries(remote)) {
      try {
        if (this.#apply(kind, key, raw, asked, held, false)) changed.push(key);
      } catch {
        bad++;
      }
    }
    for (const key of [...this.#maps[kind].keys()]) {
      if (!Object.hasOwn(remote, key) && this.#apply(kind, key, null, asked, held, false)) changed.push(key);
    }
    this.#sort(kind);
    return { changed, bad };
  }

  #stale(kind: HashKind, key: string, asked: number): boolean {
    return (this.#touched.get(`${kind}\u0000${key}`) ?? 0) > asked;
  }

  #sort(kind: HashKind): void {
    const sorted = [...this.#maps[kind]].sort(([, a], [, b]) => a.order - b.order);
    this.#maps[kind] = new Map(sorted);
  }
}

function decode(raw: string): Field {
  const parsed: unknown = JSON.parse(raw);
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as Field).o !== 'number' || !('v' in parsed)) {
    throw new Error('not a Warden hash field');
  }
  return parsed as Field;
}
