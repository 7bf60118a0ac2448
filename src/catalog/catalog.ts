// Models and their routes, built from the config and kept current by endpoint discovery.
// Everything a request needs about a model is resolved here once, so the hot path only
// reads prepared objects.
import type { Dispatcher } from 'undici';
import type { ModelConfig, ProviderConfig, TimeoutConfig, WardenConfig } from '../config/index.js';
import { adapters, credentialsIn, routingSlug, type EndpointInfo, type UpstreamAdapter } from '../upstream/index.js';
import { formatRouteId, parseRouteId } from './route-id.js';

export interface ResolvedTimeouts {
  connect: number;
  firstByte: number;
  firstToken: number;
  total: number;
}

export const DEFAULT_TIMEOUTS: ResolvedTimeouts = { connect: 5_000, firstByte: 60_000, firstToken: 60_000, total: 600_000 };

export interface Route {
  readonly id: string;
  readonly model: string;
  readonly provider: string;
  readonly endpoint: string | null;
  readonly info: EndpointInfo | null;
}

export interface UpstreamAddress {
  readonly providerName: string;
  readonly origin: string;
  /** Path of the chat completions resource on the origin, e.g. /api/v1/chat/completions. */
  readonly chatPath: string;
  readonly baseUrl: string;
  /** Authorization and fixed headers, built once. Never logged. */
  readonly headers: Readonly<Record<string, string>>;
  /** The credentials among `headers`, cut out of any upstream error text a client or a log sees. */
  readonly credentials: readonly string[];
  readonly connections: number;
  readonly thinkingSwitch: ProviderConfig['thinking'];
  /** Ask for a stream's usage when the client did not (providers.<name>.streamUsage). */
  readonly streamUsage: boolean;
}

export class CatalogModel {
  readonly name: string;
  readonly upstreamModel: string;
  readonly adapter: UpstreamAdapter;
  readonly upstream: UpstreamAddress;
  /** One object for the model's life: a reload updates it in place (see Catalog.retime), and each exchange reads it. */
  readonly timeouts: ResolvedTimeouts;
  /** `discover`: the endpoint set comes from the aggregator's listing. */
  readonly discovers: boolean;
  readonly config: ModelConfig;
  #routes: Route[] = [];
  #routeIds = new Map<string, string>();
  #routingSlugs: ReadonlyMap<string, string> = new Map();
  readonly directRouteId: string;
  lastDiscovery: { at: number; error: string | null } | null = null;
  /** The keep-alive pool to this model's upstream, looked up once (see dispatcherFrom). */
  dispatcher: Dispatcher | null = null;

  constructor(name: string, config: ModelConfig, upstream: UpstreamAddress, providerKind: ProviderConfig['kind'], timeouts: ResolvedTimeouts) {
    this.name = name;
    this.config = config;
    this.upstreamModel = config.model;
    this.adapter = adapters[providerKind];
    this.upstream = upstream;
    this.timeouts = timeouts;
    this.directRouteId = formatRouteId({ model: name, provider: upstream.providerName, endpoint: null });
    this.discovers = this.adapter.hasEndpoints && (config.routes === undefined || config.routes === 'discover');
    if (!this.adapter.hasEndpoints) {
      this.#routes = [{ id: this.directRouteId, model: name, provider: upstream.providerName, endpoint: null, info: null }];
    } else if (Array.isArray(config.routes)) {
      this.setEndpoints(config.routes.map(listedEndpoint));
    }
  }

  get routes(): readonly Route[] {
    return this.#routes;
  }

  /** Endpoint display names (also lowercased) to the slugs OpenRouter's provider routing is sent. */
  get routingSlugs(): ReadonlyMap<string, string> {
    return this.#routingSlugs;
  }

  setEndpoints(endpoints: readonly EndpointInfo[]): void {
    const slugs = new Map<string, string>();
    for (const info of endpoints) {
      const slug = routingSlug(info);
      slugs.set(info.name, slug);
      if (!slugs.has(info.name.toLowerCase())) slugs.set(info.name.toLowerCase(), slug);
    }
    this.#routingSlugs = slugs;
    this.#routes = endpoints.map((info) => {
      let id = this.#routeIds.get(info.name);
      if (id === undefined) this.#routeIds.set(info.name, (id = this.#format(info.name)));
      return { id, model: this.name, provider: this.upstream.providerName, endpoint: info.name, info };
    });
  }

  /**
   * The route id for an answer served by `endpoint` (null: the model's single direct route).
   * Ids are kept for the endpoints the config or discovery named, never for others: any name
   * a client pins before discovery, or an answer says served it, would have stayed for good.
   */
  routeIdFor(endpoint: string | null): string {
    if (endpoint === null) return this.directRouteId;
    return this.#routeIds.get(endpoint) ?? this.#format(endpoint);
  }

  /** Whether `routeId` is this model's direct route or an endpoint the config or discovery ever named. */
  names(routeId: string): boolean {
    if (routeId === this.directRouteId) return true;
    const parts = parseRouteId(routeId);
    return parts !== null && parts.endpoint !== null && this.#routeIds.get(parts.endpoint) === routeId;
  }

  #format(endpoint: string): string {
    return formatRouteId({ model: this.name, provider: this.upstream.providerName, endpoint });
  }
}

export class Catalog {
  readonly models = new Map<string, CatalogModel>();
  /** Route ids found to be labels of their own (see routeLabel): the request path reads one Set. */
  readonly #labels = new Set<string>();

  constructor(config: WardenConfig) {
    for (const [name, model] of Object.entries(config.models)) {
      const provider = config.providers[model.provider]!;
      const timeouts = resolveTimeouts(config.timeouts, provider.timeouts, model.timeouts);
      this.models.set(name, new CatalogModel(name, model, upstreamAddress(model.provider, provider), provider.kind, timeouts));
    }
  }

  /**
   * Takes a reloaded config's timeouts into the running models: the next exchange of each reads
   * them. A model whose connect timeout changed lets go of its pool, so its next exchange gets
   * one that connects with the new value. Answers whether any connect timeout changed.
   */
  retime(config: WardenConfig): boolean {
    let connectChanged = false;
    for (const model of this.models.values()) {
      const provider = config.providers[model.upstream.providerName];
      const own = config.models[model.name];
      if (!provider || !own) continue;
      const next = resolveTimeouts(config.timeouts, provider.timeouts, own.timeouts);
      if (next.connect !== model.timeouts.connect) {
        connectChanged = true;
        model.dispatcher = null;
      }
      Object.assign(model.timeouts, next);
    }
    return connectChanged;
  }

  get(name: string): CatalogModel | undefined {
    return this.models.get(name);
  }

  routes(): Route[] {
    return [...this.models.values()].flatMap((m) => m.routes);
  }

  /**
   * `routeId` as a metric label. Labels must stay a bounded set, so a route is its own label
   * only when the config or discovery named it; any other endpoint of a model (a name a
   * client pinned while the model's endpoints were unknown, a provider an answer names that
   * the listing lacks) is counted under `<model>@<provider>/(unlisted)`.
   */
  routeLabel(routeId: string): string {
    if (this.#labels.has(routeId)) return routeId;
    const parts = parseRouteId(routeId);
    const model = parts ? this.models.get(parts.model) : undefined;
    if (model?.names(routeId)) {
      this.#labels.add(routeId);
      return routeId;
    }
    return model ? `${model.directRouteId}/${UNLISTED}` : UNLISTED;
  }
}

/** The endpoint part of the label that stands for every endpoint the config and discovery never named. */
const UNLISTED = '(unlisted)';

function upstreamAddress(providerName: string, provider: ProviderConfig): UpstreamAddress {
  const url = new URL(provider.baseUrl);
  const basePath = url.pathname.replace(/\/$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(provider.headers)) headers[name] = value.reveal();
  if (provider.apiKey && !provider.apiKey.isEmpty) headers.authorization = `Bearer ${provider.apiKey.reveal()}`;
  return {
    providerName,
    origin: url.origin,
    chatPath: `${basePath}/chat/completions`,
    baseUrl: `${url.origin}${basePath}`,
    headers,
    credentials: credentialsIn(headers),
    connections: provider.connections,
    thinkingSwitch: provider.thinking,
    streamUsage: provider.streamUsage,
  };
}

/** A route the config lists; one given by name alone has no slug to send, so its name is sent as it is. */
function listedEndpoint(route: Exclude<ModelConfig['routes'], 'discover' | undefined>[number]): EndpointInfo {
  const [name, tag] = typeof route === 'string' ? [route, null] : [route.name, route.slug];
  return { name, tag, quantization: null, pricing: null, contextLength: null };
}

function resolveTimeouts(...layers: TimeoutConfig[]): ResolvedTimeouts {
  const out = { ...DEFAULT_TIMEOUTS };
  for (const layer of layers) {
    for (const key of Object.keys(out) as Array<keyof ResolvedTimeouts>) {
      const value = layer[key];
      if (value !== undefined) out[key] = value;
    }
  }
  return out;
}
