// What a request's `model` names: a role (the application names the job) or a configured
// model. Plans are built from the config (again when roles change at run time, swapped in
// whole); a request looks its plan up by name.
import type { RoleConfig, ThinkingMode, WardenConfig } from '../config/index.js';
import { effectiveThinking } from './thinking.js';
import { parseRouteId, type Catalog, type CatalogModel } from '../catalog/index.js';

export interface Plan {
  /** The name the client used. */
  readonly name: string;
  /** The role, or null when the client named a model directly. */
  readonly role: { readonly name: string; readonly config: RoleConfig } | null;
  /** Models in the order they are tried. */
  readonly candidates: readonly CatalogModel[];
  /** Label for metrics and headers: the role's name, or "-" for a model named directly. */
  readonly label: string;
  /** Set when the client named one route by its id: that endpoint alone serves, no fallback. */
  readonly pinnedEndpoint: string | null;
  /** Thinking after the role's policy (structured roles: always off). */
  readonly thinking: ThinkingMode;
  /** The model a hard request escalates to, when the role declares one. */
  readonly escalationModel: CatalogModel | null;
  /** A role in rollout: picks one of its arms' plans per request. */
  readonly split?: PlanSplit;
  /** Hears how each request on this plan ended (the arms of a rollout count their figures). */
  readonly observer?: PlanObserver;
}

/** Chooses the plan of one request among a rollout's arms: by the sticky key, else at random. */
export interface PlanSplit {
  choose(sticky: string | undefined): Plan;
}

/** How a request ended, told once at its end to the plan's observer. */
export interface RequestEnd {
  outcome: string;
  /** Attempts that failed before the end (0: the first route answered). */
  failures: number;
  /** Answers that failed the quality gate during the request. */
  qualityFailures: number;
  latencyMs: number;
  costUsd: number;
}

export interface PlanObserver {
  ended(end: RequestEnd): void;
}

/** Gives a role with a rollout its split; `planOf` builds the role's plan for a given chain. */
export type SplitFactory = (role: string, config: RoleConfig, planOf: (models: readonly string[]) => Plan) => PlanSplit | null;

export class Router {
  #plans = new Map<string, Plan>();

  constructor(
    config: WardenConfig,
    private readonly catalog: Catalog,
    private readonly splits: SplitFactory | null = null,
  ) {
    this.update(config);
  }

  /** Rebuilds every plan from `config` (its models must be the catalog's) and swaps them in at once. */
  update(config: WardenConfig): void {
    const plans = new Map<string, Plan>();
    for (const [name, role] of Object.entries(config.roles)) {
      const planOf = (models: readonly string[]) => this.#rolePlan(name, role, models);
      const split = this.splits?.(name, role, planOf) ?? null;
      plans.set(name, split ? { ...planOf(role.models), split } : planOf(role.models));
    }
    for (const model of this.catalog.models.values()) {
      plans.set(model.name, { name: model.name, role: null, candidates: [model], label: '-', pinnedEndpoint: null, thinking: 'auto', escalationModel: null });
    }
    this.#plans = plans;
  }

  #rolePlan(name: string, role: RoleConfig, models: readonly string[]): Plan {
    return {
      name,
      role: { name, config: role },
      candidates: models.map((m) => this.catalog.get(m)!),
      label: name,
      pinnedEndpoint: null,
      thinking: effectiveThinking(name, role),
      escalationModel: role.escalation ? this.catalog.get(role.escalation.model)! : null,
    };
  }

  /**
   * A role, a model, or a route id: naming `chat-main@openrouter/DeepInfra` pins the request
   * to that endpoint, which is how an operator reproduces what one route does. `sticky` (the
   * x-warden-sticky header) keeps a caller on one arm of a rollout.
   */
  resolve(name: string, sticky?: string): Plan | undefined {
    const plan = this.#plans.get(name);
    if (plan === undefined) return this.#routePlan(name);
    return plan.split === undefined ? plan : plan.split.choose(sticky);
  }

  #routePlan(name: string): Plan | undefined {
    const parts = parseRouteId(name);
    const model = parts && this.catalog.get(parts.model);
    if (!parts || !model || parts.provider !== model.upstream.providerName) return undefined;
    if (parts.endpoint === null) return this.#plans.get(model.name);
    if (!model.adapter.hasEndpoints) return undefined;
    // An endpoint the model is known not to have would only earn the aggregator's 404; before
    // its endpoints are discovered the aggregator decides.
    if (model.routes.length > 0 && !model.routes.some((r) => r.endpoint === parts.endpoint)) return undefined;
    return { name, role: null, candidates: [model], label: '-', pinnedEndpoint: parts.endpoint, thinking: 'auto', escalationModel: null };
  }

  plans(): Plan[] {
    return [...this.#plans.values()];
  }
}
