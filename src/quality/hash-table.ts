// Open-addressing hash tables keyed by numbers below 2^53: n-grams packed into a number
// (language scoring: characters below 256 as base-256 digits, at most six) or hashed into one
// (repetition: four token hashes). Several hundred n-grams per reply; numeric keys in typed
// arrays avoid building and hashing a string for each, where a Map<string, …> spent its time.

const EMPTY = -1;

function slotOf(key: number, mask: number): number {
  const lo = key >>> 0;
  const hi = (key / 4294967296) >>> 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  return h & mask;
}

function capacityFor(count: number): number {
  let capacity = 16;
  while (capacity < count * 2) capacity <<= 1;
  return capacity;
}

/** Packed n-gram → non-negative integer; filled once, then read-only. */
export class GramIndex {
  private readonly keys: Float64Array;
  private readonly values: Int32Array;
  private readonly mask: number;

  constructor(expected: number) {
    const capacity = capacityFor(expected);
    this.keys = new Float64Array(capacity);
    this.values = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
  }

  set(key: number, value: number): void {
    let slot = slotOf(key, this.mask);
    while (this.values[slot] !== EMPTY && this.keys[slot] !== key) slot = (slot + 1) & this.mask;
    this.keys[slot] = key;
    this.values[slot] = value;
  }

  /** The value, or -1 when the n-gram is not in the table. */
  get(key: number): number {
    let slot = slotOf(key, this.mask);
    for (;;) {
      const value = this.values[slot] ?? EMPTY;
      if (value === EMPTY || this.keys[slot] === key) return value;
      slot = (slot + 1) & this.mask;
    }
  }
}

/** A set of packed n-grams, emptied in O(1) by moving to a new generation; grows as needed. */
export class GramSet {
  private keys = new Float64Array(1024);
  private stamps = new Uint32Array(1024);
  private generation = 1;
  private count = 0;

  clear(): void {
    this.count = 0;
    if (++this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
  }

  get size(): number {
    return this.count;
  }

  /** Adds the key; true when it was not there yet. */
  add(key: number): boolean {
    if (this.count * 2 >= this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let slot = slotOf(key, mask);
    while (this.stamps[slot] === this.generation) {
      if (this.keys[slot] === key) return false;
      slot = (slot + 1) & mask;
    }
    this.stamps[slot] = this.generation;
    this.keys[slot] = key;
    this.count++;
    return true;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldStamps = this.stamps;
    const live = this.generation;
    this.keys = new Float64Array(oldKeys.length * 2);
    this.stamps = new Uint32Array(oldKeys.length * 2);
    this.generation = 1;
    this.count = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldStamps[i] === live) this.add(oldKeys[i] ?? 0);
  }
}

/** Packs a short string of characters below 256 into a number; NaN when it cannot. */
export function packGram(text: string): number {
  if (text.length > 6) return NaN;
  let key = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0 || c > 0xff) return NaN;
    key = key * 256 + c;
  }
  return key;
}
