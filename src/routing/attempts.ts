// Which route the next attempt of one request goes to. The first attempt takes the plan's
// order; after a failure the choice depends on what failed (seed 004: a fallback is chosen
// by failure type and model profile, never at random), and the budget bounds the chain.
import type { Admission } from '../resilience/index.js';
import type { OutcomeClass } from '../resilience/index.js';
import type { RoleConfig, ThinkingMode } from '../config/index.js';
import type { CatalogModel } from '../catalog/index.js';
import type { Plan } from './plan.js';
import type { ProviderPreferences } from '../protocol/types.js';
import { clientAllowedEndpoints } from './client-endpoints.js';

export interface AttemptChoice {
  model: CatalogModel;
  /** The breaker this attempt reports to: an endpoint's route when pinned, else the model's route. */
  routeId: string;
  pinnedEndpoint: string | null;
  ignoredEndpoints: readonly string[];
  /** This attempt is a half-open breaker's recovery probe. */
  probe: boolean;
  thinking: ThinkingMode;
  /** Why this route: `primary`, `escalation`, `fallback`, `cooldown ends first`. */
  why: string;
}

export interface FailedAttempt {
  choice: AttemptChoice;
  /**
   * How the attempt failed. `shed` is Warden's own doing, never the route's: it passed the route
   * over (its provider at Warden's concurrency quota) or ended the attempt (the route left service).
   */
  outcome: Exclude<OutcomeClass, 'ok' | 'client'> | 'shed';
  /** Stable code: `upstream_timeout_total`, `wrong_language`, `upstream_status_503`, … */
  reason: string;
  /** The endpoint that served the failed answer, when the answer said. */
  servedEndpoint: string | null;
}

/**
 * A route's admission as route health answers it. A refusal is its breaker's (the route
 * reopens at `retryAt`) unless it says `outOfService`: blocked, quarantined or shed, where the
 * route takes no request at all, not even a degrade role's last resort.
 */
export type HealthAdmission = Admission | { admitted: false; retryAt: number; outOfService: true };

/** What the planner needs to know of route health, without knowing how it is kept. */
export interface RouteHealth {
  admit(routeId: string): HealthAdmission;
  /** Endpoints of an aggregator model that must not serve (blocklists, open breakers). */
  ignoredEndpoints(model: CatalogModel): readonly string[];
  /**
   * An endpoint (among `allowed`, when given; never one of `excluded`) whose breaker wants a
   * recovery probe and admits this request as it, or null. Admitting takes the probe: an
   * endpoint the request will not use must be excluded here, not dropped after.
   */
  probeEndpoint(model: CatalogModel, allowed?: ReadonlySet<string> | null, excluded?: ReadonlySet<string> | null): string | null;
  /** When a refused route serves again, without admitting anything (no probe started); null when it would admit now. */
  refusal(routeId: string): { retryAt: number; outOfService: boolean } | null;
}

export interface PlannerOptions {
  maxFallbacks: number;
  /** The role's tier (null: a model or route id named directly): strict keeps to the first model, degrade may wait on a cooldown. */
  tier: RoleConfig['tier'] | null;
  /** The role's job, matched against profile strengths after a quality failure. */
  task: string | null;
  /** The expected language, matched against profile languages after a language failure. */
  language: string | null;
  escalate: boolean;
  escalationThinking: ThinkingMode;
  /** The client's `provider` preferences when they restrict endpoints (see restrictsEndpoints), else null. */
  clientProvider?: ProviderPreferences | null;
}

export class AttemptPlanner {
  #attempts = 0;
  // Made on the first failure: most requests succeed at once and never need them.
  #failedEndpoints: Map<string, Set<string>> | null = null;
  #spentModels: Set<string> | null = null;
  #earliestRetryAt: number | null = null;
  /** Routes whose recovery probe another instance is sending: not to be chosen again. */
  #probedElsewhere: Set<string> | null = null;
  /** Per model, the endpoints the client's preferences allow (null: all); made only when the client restricts. */
  #clientAllowed: Map<string, ReadonlySet<string> | null> | null = null;
  readonly #models: CatalogModel[];

  constructor(
    private readonly plan: Plan,
    private readonly health: RouteHealth,
    private readonly options: PlannerOptions,
  ) {
    const chain = options.tier === 'strict' ? plan.candidates.slice(0, 1) : [...plan.candidates];
    this.#models = options.escalate && plan.escalationModel ? [plan.escalationModel, ...chain.filter((m) => m !== plan.escalationModel)] : chain;
  }

  get attempts(): number {
    return this.#attempts;
  }

  /** When a refused route could next be tried: the Retry-After of a 503. */
  get earliestRetryAt(): number | null {
    return this.#earliestRetryAt;
  }

  next(last: FailedAttempt | null): AttemptChoice | null {
    if (this.#attempts > this.options.maxFallbacks) return null;
    if (last) this.#learn(last);
    const refused: Refused[] = [];
    for (const model of this.#order(last)) {
      const choice = this.#choose(model, refused);
      if (choice) {
        this.#attempts++;
        choice.why = this.#attempts === 1 ? (this.options.escalate && model === this.plan.escalationModel ? 'escalation' : 'primary') : 'fallback';
        return choice;
      }
    }
    // Every route refused: the earliest time one serves again is the 503's Retry-After. A
    // degrade role whose routes are refused by their breakers tries the one that reopens first
    // rather than failing at once (README: roles, tiers and fallback); other tiers answer as
    // they do. A route out of service (blocked, quarantined, shed) is never tried this way.
    if (refused.length === 0) return null;
    this.#earliestRetryAt = Math.min(...refused.map((r) => r.at));
    if (this.options.tier !== 'degrade') return null;
    const elsewhere = this.#probedElsewhere;
    const waiting = refused.filter((r) => r.cooling && !elsewhere?.has(r.routeId));
    if (waiting.length === 0) return null;
    const soonest = waiting.reduce((a, b) => (b.at < a.at ? b : a));
    this.#attempts++;
    return this.#target(soonest.model, soonest.endpoint ?? this.plan.pinnedEndpoint, soonest.routeId, true, 'cooldown ends first');
  }

  /** Takes back a probe choice that lost the shared probe slot: it was never sent. */
  skip(choice: AttemptChoice): void {
    this.#attempts--;
    (this.#probedElsewhere ??= new Set()).add(choice.routeId);
  }

  #learn(last: FailedAttempt): void {
    const { model } = last.choice;
    const endpoint = last.choice.pinnedEndpoint ?? last.servedEndpoint;
    if (model.adapter.hasEndpoints && endpoint) {
      this.#failedEndpoints ??= new Map();
      const failed = this.#failedEndpoints.get(model.name) ?? new Set<string>();
      failed.add(endpoint);
      this.#failedEndpoints.set(model.name, failed);
      // Faults follow the inference endpoint (seed 000): another endpoint of the same model
      // is worth a try, unless nothing is left of it.
      if (this.plan.pinnedEndpoint !== null || !hasOpenEndpoint(model, this.#ignored(model, null), this.#allowedByClient(model))) (this.#spentModels ??= new Set()).add(model.name);
    } else {
      (this.#spentModels ??= new Set()).add(model.name);
    }
  }

  #order(last: FailedAttempt | null): readonly CatalogModel[] {
    if (!last) return this.#models;
    const spent = this.#spentModels;
    const open = spent === null ? this.#models : this.#models.filter((m) => !spent.has(m.name));
    const same = open.filter((m) => m === last.choice.model);
    const others = open.filter((m) => m !== last.choice.model);
    if (last.outcome === 'quality' && (last.reason === 'wrong_language' || last.reason === 'mixed_language') && this.options.language) {
      const language = this.options.language;
      return [...same, ...preferring(others, (m) => m.config.profile?.languages.includes(language) ?? false)];
    }
    if (last.outcome === 'quality' && this.options.task) {
      const task = this.options.task;
      return [...same, ...preferring(others, (m) => m.config.profile?.strengths.includes(task) ?? false)];
    }
    return [...same, ...others];
  }

  #choose(model: CatalogModel, refused: Refused[]): AttemptChoice | null {
    const allowed = this.#allowedByClient(model);
    if (model.adapter.hasEndpoints && this.plan.pinnedEndpoint === null) {
      // A recovery probe rides on a client's request only where the client lets it go: a
      // probe pin replaces the client's only/ignore, so any other endpoint would break them.
      // An endpoint that already failed this request is not asked again, nor its probe taken.
      const probeEndpoint = this.health.probeEndpoint(model, allowed, this.#failedEndpoints?.get(model.name) ?? null);
      if (probeEndpoint !== null) return this.#target(model, probeEndpoint, model.routeIdFor(probeEndpoint), true);
    }
    const ignored = this.#ignored(model, this.plan.pinnedEndpoint);
    // Every endpoint out of service (of those the client allows): asking the aggregator would
    // only earn a 404 ("no allowed providers"), so the model is skipped like an open route, and
    // the next one is tried. Its endpoints refused by route health count as refused routes, so
    // that the 503's Retry-After and a degrade role's last resort know when one serves again.
    if (ignored.length > 0 && !hasOpenEndpoint(model, ignored, allowed)) {
      for (const route of model.routes) {
        if (allowed !== null && !allowed.has(route.endpoint!)) continue;
        const refusal = route.endpoint === null ? null : this.health.refusal(route.id);
        if (refusal) refused.push({ model, routeId: route.id, at: refusal.retryAt, cooling: !refusal.outOfService, endpoint: route.endpoint });
      }
      return null;
    }
    const routeId = this.plan.pinnedEndpoint !== null ? model.routeIdFor(this.plan.pinnedEndpoint) : model.directRouteId;
    const admission = this.health.admit(routeId);
    if (!admission.admitted) {
      refused.push({ model, routeId, at: admission.retryAt, cooling: !('outOfService' in admission), endpoint: null });
      return null;
    }
    return this.#target(model, this.plan.pinnedEndpoint, routeId, admission.probe, '', ignored);
  }

  #target(model: CatalogModel, pinned: string | null, routeId: string, probe: boolean, why = '', ignored = this.#ignored(model, pinned)): AttemptChoice {
    const thinking = this.options.escalate && model === this.plan.escalationModel ? this.options.escalationThinking : this.plan.thinking;
    return { model, routeId, pinnedEndpoint: pinned, ignoredEndpoints: ignored, probe, thinking, why };
  }

  #allowedByClient(model: CatalogModel): ReadonlySet<string> | null {
    const prefs = this.options.clientProvider;
    if (!prefs || !model.adapter.hasEndpoints) return null;
    const cache = (this.#clientAllowed ??= new Map());
    let allowed = cache.get(model.name);
    if (allowed === undefined) cache.set(model.name, (allowed = clientAllowedEndpoints(model, prefs)));
    return allowed;
  }

  /** What the aggregator must keep out: blocked endpoints and those this request saw fail. */
  #ignored(model: CatalogModel, pinned: string | null): readonly string[] {
    if (!model.adapter.hasEndpoints || pinned !== null) return NONE;
    const blocked = this.health.ignoredEndpoints(model);
    const failed = this.#failedEndpoints?.get(model.name);
    return failed ? [...blocked, ...[...failed].filter((e) => !blocked.includes(e))] : blocked;
  }

}

const NONE: readonly string[] = [];

/** Whether an endpoint of the model is left outside `ignored`; a model not discovered yet leaves it to the aggregator. */
/** Whether an endpoint the client allows (`allowed`; null: all) is not ignored; an empty `allowed` is the client's own doing, left to the aggregator. */
function hasOpenEndpoint(model: CatalogModel, ignored: readonly string[], allowed: ReadonlySet<string> | null = null): boolean {
  if (model.routes.length === 0 || allowed?.size === 0) return true;
  return model.routes.some((r) => r.endpoint !== null && !ignored.includes(r.endpoint) && (allowed === null || allowed.has(r.endpoint)));
}

interface Refused {
  model: CatalogModel;
  routeId: string;
  at: number;
  /** Refused by its breaker, not out of service. */
  cooling: boolean;
  /** The aggregator endpoint the route stands for, when the refusal is an endpoint's; tried pinned to it. */
  endpoint: string | null;
}

function preferring<T>(items: T[], preferred: (item: T) => boolean): T[] {
  return [...items.filter(preferred), ...items.filter((i) => !preferred(i))];
}
