// The faults a simulated provider can inject, and the seeded dice that pick one per request.
import { hash, mulberry32, type Random } from './rng.js';

/** In roll order: the cumulative walk goes through them in this order. */
export const FAULT_NAMES = [
  'error500', 'error502', 'error503', 'rateLimit', 'hang', 'reset', 'garbage', 'streamError',
  'prefix', 'drift', 'brokenJson', 'refusal', 'contentFilter', 'empty', 'mojibake',
  'repetition', 'wrongFact', 'streamGarbage', 'streamCut', 'lastChoicePrefix',
] as const;

export type FaultName = (typeof FAULT_NAMES)[number];

/**
 * The fault one of a request's `n` choices carries. `lastChoicePrefix` damages the last choice
 * alone (a stray prefix), the provider that answers n > 1 with one bad sample among good ones;
 * every other fault acts on each choice alike.
 */
export function choiceFault(fault: FaultName | null, index: number, choices: number): FaultName | null {
  if (fault !== 'lastChoicePrefix') return fault;
  return index === choices - 1 ? 'prefix' : null;
}

/** Probability of each fault per request, each in [0, 1]. */
export type Faults = Record<FaultName, number>;

const FAULT_SET: ReadonlySet<string> = new Set(FAULT_NAMES);

export function isFaultName(name: string): name is FaultName {
  return FAULT_SET.has(name);
}

/** Failures that happen before any response, so an aggregator may try the next provider. */
export function isPreResponseFault(fault: FaultName | null): boolean {
  return fault === 'error500' || fault === 'error502' || fault === 'error503' || fault === 'rateLimit';
}

export function noFaults(): Faults {
  const faults = {} as Faults;
  for (const name of FAULT_NAMES) faults[name] = 0;
  return faults;
}

export function withDefaults(partial: Partial<Faults> | undefined): Faults {
  return { ...noFaults(), ...partial };
}

/**
 * One provider's dice: one roll per request, at most one fault. Probabilities add up along
 * FAULT_NAMES; when they sum past 1 they are weights and some fault always happens.
 */
export class FaultDice {
  #random: Random;

  constructor(
    private readonly seed: number,
    private readonly provider: string,
  ) {
    this.#random = mulberry32(hash(seed, provider));
  }

  roll(faults: Faults): FaultName | null {
    const r = this.#random();
    let total = 0;
    for (const name of FAULT_NAMES) total += faults[name];
    if (total === 0) return null;
    const scaled = r * Math.max(1, total);
    let cumulative = 0;
    for (const name of FAULT_NAMES) {
      cumulative += faults[name];
      if (faults[name] > 0 && scaled < cumulative) return name;
    }
    return null;
  }

  reseed(): void {
    this.#random = mulberry32(hash(this.seed, this.provider));
  }
}

/**
 * The `x-sim-fault` request header: `error503` or `none` forces it on every provider the
 * request reaches; `Alpha=error503, Beta=none` forces per provider (others roll as usual).
 */
export interface ForcedFaults {
  all?: FaultName | null;
  byProvider: Map<string, FaultName | null>;
}

export function parseForcedFaults(header: string): ForcedFaults | string {
  const forced: ForcedFaults = { byProvider: new Map() };
  for (const rawPart of header.split(',')) {
    const part = rawPart.trim();
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(eq + 1)).trim();
    const fault = name === 'none' ? null : isFaultName(name) ? name : undefined;
    if (fault === undefined) return `x-sim-fault: unknown fault "${name}"; expected none or one of ${FAULT_NAMES.join(', ')}`;
    if (eq === -1) forced.all = fault;
    else forced.byProvider.set(part.slice(0, eq).trim().toLowerCase(), fault);
  }
  return forced;
}

/** The forced fault for a provider: undefined means "not forced, roll the dice". */
export function forcedFor(forced: ForcedFaults | undefined, provider: string): FaultName | null | undefined {
  if (!forced) return undefined;
  const own = forced.byProvider.get(provider.toLowerCase());
  return own !== undefined ? own : forced.all;
}
