// OpenRouter's provider routing, as the fleet plays it: which providers a request may reach,
// in which order, and whether a failed attempt may move on to the next.
import type { ProviderPreferences } from '../protocol/types.js';
import { hash, mulberry32, type Random } from './rng.js';

/** How a provider is named in `provider.order` / `only` / `ignore`. */
export interface RoutingIdentity {
  /** Display name, e.g. "Google AI Studio": what answers carry in `provider`. */
  name: string;
  /** e.g. "google-ai-studio": what OpenRouter documents the lists to take. */
  slug: string;
  /** The endpoint's tag, e.g. "deepinfra/fp8", which names that one endpoint. */
  tag: string;
}

/**
 * `slugs`: only slugs and endpoint tags name a provider, as OpenRouter documents (tests use
 * it to catch a display name sent where a slug is needed); `slugs-and-names`: display names
 * too, as OpenRouter accepts in practice. Case never matters. An entry naming no provider is
 * dropped without a word, as OpenRouter drops it; the request log lists it as unmatched.
 */
export type RoutingNames = 'slugs' | 'slugs-and-names';

export interface Candidates {
  /** Provider display names in the order they are tried. */
  names: string[];
  allowFallbacks: boolean;
  /** Entries of order / only / ignore that named no provider serving the model, as received. */
  unmatched: string[];
}

/** Accepts the `provider` object as received; non-string entries are ignored. */
export function candidatesFor(serving: readonly RoutingIdentity[], preferences: unknown, routingNames: RoutingNames = 'slugs-and-names'): Candidates {
  const prefs = isPreferences(preferences) ? preferences : {};
  const matches = (entry: string, p: RoutingIdentity) =>
    entry === p.slug.toLowerCase() || entry === p.tag.toLowerCase() || (routingNames === 'slugs-and-names' && entry === p.name.toLowerCase());
  const named = (list: string[] | null, p: RoutingIdentity) => list !== null && list.some((entry) => matches(entry, p));
  const only = listOrNull(prefs.only);
  const ignore = listOrNull(prefs.ignore);
  const order = nameList(prefs.order);
  const allowFallbacks = prefs.allow_fallbacks !== false;

  let chosen = serving.filter((p) => (only === null || named(only, p)) && !named(ignore, p));
  if (order.length > 0) {
    const rank = (p: RoutingIdentity) => {
      const at = order.findIndex((entry) => matches(entry, p));
      return at === -1 ? order.length : at;
    };
    // Array.prototype.sort is stable: unnamed providers keep scenario order after the named.
    chosen = [...chosen].sort((a, b) => rank(a) - rank(b));
  }
  if (!allowFallbacks) {
    const kept = order.length > 0 ? order : only;
    chosen = kept === null ? chosen.slice(0, 1) : chosen.filter((p) => named(kept, p));
  }
  const unmatched = [prefs.order, prefs.only, prefs.ignore]
    .flatMap((list) => (Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : []))
    .filter((entry) => !serving.some((p) => matches(entry.trim().toLowerCase(), p)));
  return { names: chosen.map((p) => p.name), allowFallbacks, unmatched };
}

function isPreferences(value: unknown): value is ProviderPreferences {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function nameList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').map((v) => v.trim().toLowerCase()) : [];
}

function listOrNull(value: unknown): string[] | null {
  return Array.isArray(value) ? nameList(value) : null;
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
