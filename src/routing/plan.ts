// What a request's `model` names: a role (the application names the job) or a configured
// model. Plans are built once from the config; a request looks its plan up by name.
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
}

export class Router {
  #plans = new Map<string, Plan>();

  constructor(
    config: WardenConfig,
    private readonly catalog: Catalog,
  ) {
    for (const [name, role] of Object.entries(config.roles)) {
      this.#plans.set(name, {
        name,
        role: { name, config: role },
        candidates: role.models.map((m) => catalog.get(m)!),
        label: name,
        pinnedEndpoint: null,
        thinking: effectiveThinking(name, role),
        escalationModel: role.escalation ? catalog.get(role.escalation.model)! : null,
      });
    }
    for (const model of catalog.models.values()) {
      this.#plans.set(model.name, { name: model.name, role: null, candidates: [model], label: '-', pinnedEndpoint: null, thinking: 'auto', escalationModel: null });
    }
  }

  /**
   * A role, a model, or a route id: naming `chat-main@openrouter/DeepInfra` pins the request
   * to that endpoint, which is how an operator reproduces what one route does.
   */
  resolve(name: string): Plan | undefined {
    return this.#plans.get(name) ?? this.#routePlan(name);
  }

  #routePlan(name: string): Plan | undefined {
    const parts = parseRouteId(name);
    const model = parts && this.catalog.get(parts.model);
    if (!parts || !model || parts.provider !== model.upstream.providerName) return undefined;
    if (parts.endpoint === null) return this.#plans.get(model.name);
    if (!model.adapter.hasEndpoints) return undefined;
    return { name, role: null, candidates: [model], label: '-', pinnedEndpoint: parts.endpoint, thinking: 'auto', escalationModel: null };
  }

  plans(): Plan[] {
    return [...this.#plans.values()];
  }
}
