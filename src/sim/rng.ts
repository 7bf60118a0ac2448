// Seeded randomness for the fleet. Everything the fleet "decides" (faults, reply text)
// comes from these, so a scenario seed replays the same run.

/** FNV-1a over the parts joined by a separator; fast, stable across runs and platforms. */
export function hash(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  for (let p = 0; p < parts.length; p++) {
    const text = String(parts[p]);
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x1f; // separator, so ("ab","c") and ("a","bc") differ
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny PRNG with a 32-bit state, good enough for dice and word choice. */
export type Random = () => number;

export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(items: readonly T[], random: Random): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
