// Seed 002's counterfactual numbers, since the gateway started, from one reading of the
// metrics registry: each degraded answer, each recovery, each strict 503 is an incident that
// would have reached users without this layer.
import { METRIC } from './metric-names.js';
import { unpricedAmong, type CostBasis } from './pricing.js';
import type { Reading } from './reading.js';

export type Tier = 'strict' | 'degrade' | 'default';

export interface RoleNumbers {
  role: string;
  tier: Tier | null;
  /** Every request of the role, whatever its result (warden_role_requests_total). */
  requests: number;
  /** Answered by the first route tried. */
  primary: number;
  /** Answered by another route after the first failed. */
  fallback: number;
  /** fallback ÷ requests, null without requests. */
  fallbackShare: number | null;
  /** Answered by a stand-in: the degrade message or the role's default. */
  degraded: number;
  /** degraded ÷ requests, null without requests: the same number as the warden_degraded_share gauge. */
  degradedShare: number | null;
  /** 503 role_unavailable. */
  unavailable: number;
  /** unavailable ÷ requests whatever the tier (a degrade role without a stand-in answers 503 too), null without requests. */
  unavailableRate: number | null;
  /** unavailable ÷ requests for a strict role (its 503 rate), null otherwise. */
  strictUnavailableRate: number | null;
  /** Cost of the role's priced models; null when none of the models it may use has a price (unknown, not free). */
  costUsd: number | null;
  /** costUsd ÷ requests, null without requests or without a price. */
  costPerRequest: number | null;
  /** Models the role may use that have no price: their usage is not in costUsd. */
  unpricedModels: string[];
}

export interface ModelNumbers {
  model: string;
  /** Role requests whose first attempt went to the model (warden_first_attempts_total). */
  firstAttempts: number;
  /** Those that left it after a failure (warden_fallbacks_total by from_model). */
  fallbacks: number;
  /** fallbacks ÷ firstAttempts, null without any. */
  fallbackRate: number | null;
}

export interface Counterfactuals {
  roles: RoleNumbers[];
  /** The fallback rate per model since start, exactly: the chart's series summed. */
  models: ModelNumbers[];
  breakers: {
    openings: number;
    /** Time routes spent open or half-open, counted when they closed again. */
    openSeconds: number;
    recoveries: number;
    firstTryRecoveries: number;
    /** Closings whose first recovery probe succeeded ÷ all closings (low: the cooldown is too short). */
    firstTryRate: number | null;
  };
  /** Every strict role together. */
  strict: { requests: number; unavailable: number; rate: number | null };
  /**
   * Role requests answered by another route after the first failed (the roles' `fallback`).
   * Not warden_fallbacks_total: that also counts requests that left their first route and
   * were answered by nothing (a 503) or by the tier's stand-in (to_model="none").
   */
  fallbacks: number;
  /** Cost of every priced model's usage; null when no model has a price (unknown, not free). */
  costUsd: number | null;
  /** Configured models with no price: their usage is not in costUsd. */
  unpricedModels: string[];
  /** Answers whose upstream sent no usage, and the routes that sent them: their tokens are in no figure, costUsd included. */
  withoutUsage: { answers: number; routes: string[] };
}

/** As the warden_degraded_share gauge counts them (src/telemetry/metrics.ts). */
const DEGRADED = new Set(['degraded', 'default']);

export function counterfactuals(reading: Reading, tiers: Readonly<Record<string, Tier>>, prices: CostBasis): Counterfactuals {
  const results = new Map<string, Map<string, number>>();
  for (const s of reading.samples(METRIC.roleResults)) {
    const role = s.labels.role;
    const result = s.labels.result;
    if (role === undefined || result === undefined) continue;
    const byResult = results.get(role) ?? new Map<string, number>();
    byResult.set(result, (byResult.get(result) ?? 0) + s.value);
    results.set(role, byResult);
  }
  const cost = reading.sumBy(METRIC.cost, 'role');
  const strictCounter = reading.has(METRIC.strictUnavailable) ? reading.sumBy(METRIC.strictUnavailable, 'role') : null;
  const names = [...new Set([...Object.keys(tiers), ...results.keys(), ...cost.keys()])].sort();
  const roles = names.map((role): RoleNumbers => {
    const byResult = results.get(role) ?? new Map<string, number>();
    let requests = 0;
    let degraded = 0;
    for (const [result, n] of byResult) {
      requests += n;
      if (DEGRADED.has(result)) degraded += n;
    }
    const fallback = byResult.get('fallback') ?? 0;
    const tier = tiers[role] ?? null;
    // The dedicated counter when the gateway has it; the role's 503s say the same before.
    const unavailable = tier === 'strict' && strictCounter ? (strictCounter.get(role) ?? 0) : (byResult.get('unavailable') ?? 0);
    const chain = prices.chains[role] ?? [];
    const unpricedModels = unpricedAmong(prices, chain);
    // Nothing counted for a role none of whose models has a price is unknown, not free (a
    // role answered by a priced model outside its chain, or one no longer configured, keeps
    // what was counted).
    const counted = cost.get(role);
    const costUsd = counted === undefined && chain.length > 0 && unpricedModels.length === chain.length ? null : (counted ?? 0);
    return {
      role,
      tier,
      requests,
      primary: byResult.get('primary') ?? 0,
      fallback,
      fallbackShare: ratio(fallback, requests),
      degraded,
      degradedShare: ratio(degraded, requests),
      unavailable,
      unavailableRate: ratio(unavailable, requests),
      strictUnavailableRate: tier === 'strict' ? ratio(unavailable, requests) : null,
      costUsd,
      costPerRequest: costUsd === null ? null : ratio(costUsd, requests),
      unpricedModels,
    };
  });
  const strictRoles = roles.filter((r) => r.tier === 'strict');
  const strictRequests = strictRoles.reduce((n, r) => n + r.requests, 0);
  const strictUnavailable = strictRoles.reduce((n, r) => n + r.unavailable, 0);
  const firstTry = reading.sumBy(METRIC.breakerRecoveries, 'first_try');
  const recoveries = (firstTry.get('true') ?? 0) + (firstTry.get('false') ?? 0);
  const openings = reading.has(METRIC.breakerOpenings) ? reading.total(METRIC.breakerOpenings) : reading.total(METRIC.breakerTransitions, (l) => l.to === 'open');
  const started = reading.sumBy(METRIC.firstAttempts, 'model');
  const leaving = reading.sumBy(METRIC.fallbacks, 'from_model');
  const models = [...new Set([...started.keys(), ...leaving.keys()])].sort().map((model): ModelNumbers => {
    const firstAttempts = started.get(model) ?? 0;
    const fallbacks = leaving.get(model) ?? 0;
    return { model, firstAttempts, fallbacks, fallbackRate: ratio(fallbacks, firstAttempts) };
  });
  return {
    roles,
    models,
    breakers: {
      openings,
      openSeconds: reading.total(METRIC.breakerOpenSeconds),
      recoveries,
      firstTryRecoveries: firstTry.get('true') ?? 0,
      firstTryRate: ratio(firstTry.get('true') ?? 0, recoveries),
    },
    strict: { requests: strictRequests, unavailable: strictUnavailable, rate: ratio(strictUnavailable, strictRequests) },
    fallbacks: roles.reduce((n, r) => n + r.fallback, 0),
    costUsd: prices.priced.size === 0 ? null : roles.reduce((n, r) => n + (r.costUsd ?? 0), 0),
    unpricedModels: unpricedAmong(prices, prices.models),
    withoutUsage: withoutUsage(reading),
  };
}

function withoutUsage(reading: Reading): Counterfactuals['withoutUsage'] {
  const byRoute = reading.sumBy(METRIC.withoutUsage, 'route');
  const routes = [...byRoute].filter(([, n]) => n > 0).map(([route]) => route).sort();
  return { answers: reading.total(METRIC.withoutUsage), routes };
}

function ratio(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}
