// OpenRouter's provider routing, as the fleet plays it: which providers a request may reach,
// in which order, and whether a failed attempt may move on to the next.
import type { ProviderPreferences } from '../protocol/types.js';
import { hash, mulberry32, type Random } from './rng.js';

export interface Candidates {
  /** Provider names in the order they are tried. */
  names: string[];
  allowFallbacks: boolean;
}

/** Accepts the `provider` object as received; non-string entries are ignored. */
export function candidatesFor(serving: readonly string[], preferences: unknown): Candidates {
  const prefs = isPreferences(preferences) ? preferences : {};
  const only = nameSet(prefs.only);
  const ignore = nameSet(prefs.ignore);
  const order = nameList(prefs.order);
  const allowFallbacks = prefs.allow_fallbacks !== false;

  let names = serving.filter((name) => {
    const key = name.toLowerCase();
    return (only === null || only.has(key)) && !(ignore?.has(key) ?? false);
  });
  if (order.length > 0) {
    const rank = (name: string) => {
      const at = order.indexOf(name.toLowerCase());
      return at === -1 ? order.length : at;
    };
    // Array.prototype.sort is stable: unnamed providers keep scenario order after the named.
    names = [...names].sort((a, b) => rank(a) - rank(b));
  }
  if (!allowFallbacks) {
    const named = order.length > 0 ? new Set(order) : only;
    names = named === null ? names.slice(0, 1) : names.filter((name) => named.has(name.toLowerCase()));
  }
  return { names, allowFallbacks };
}

function isPreferences(value: unknown): value is ProviderPreferences {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function nameList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase()) : [];
}

function nameSet(value: unknown): Set<string> | null {
  return Array.isArray(value) ? new Set(nameList(value)) : null;
}

/**
 * OpenRouter's default load balancing: without an explicit order, the first provider tried
 * is drawn with weight 1/price², the rest follow as fallbacks. Seeded, so runs replay.
 */
export class PriceBalancer {
  #random: Random;

  constructor(private readonly seed: number) {
    this.#random = mulberry32(hash(seed, 'balance'));
  }

  reset(): void {
    this.#random = mulberry32(hash(this.seed, 'balance'));
  }

  front<T extends { spec: { price: { input: number; output: number } } }>(candidates: readonly T[], preferences: unknown): readonly T[] {
    const prefs = isPreferences(preferences) ? preferences : {};
    if (candidates.length < 2 || nameList(prefs.order).length > 0 || prefs.sort !== undefined) return candidates;
    const weights = candidates.map((c) => {
      const price = c.spec.price.input + c.spec.price.output;
      return price > 0 ? 1 / (price * price) : 1;
    });
    let roll = this.#random() * weights.reduce((a, b) => a + b, 0);
    let chosen = 0;
    while (chosen < weights.length - 1 && roll >= weights[chosen]!) roll -= weights[chosen++]!;
    return [candidates[chosen]!, ...candidates.filter((_, i) => i !== chosen)];
  }
}
