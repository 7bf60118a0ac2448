// What Warden needs to know about a kind of upstream: how to address it, how to shape a
// request body for it, and how to tell from an answer which endpoint served it. Adapters
// are data plus small pure transforms; the I/O lives in exchange.ts.
import type { ChatRequest } from '../protocol/types.js';

/** Where one attempt goes: the upstream model, and for aggregators the endpoint pinned or the ones to avoid. */
export interface AttemptTarget {
  upstreamModel: string;
  /** Pin to exactly this endpoint, by display name (canary probes, route-level retries). */
  pinnedEndpoint: string | null;
  /** Endpoints out of service, by display name, to be kept out of the aggregator's choice. */
  ignoredEndpoints: readonly string[];
  /**
   * The model's endpoints by display name (and lowercased), each to the slug provider routing
   * is sent (see endpoint-names.ts); a name missing here is sent as it is.
   */
  routingSlugs: ReadonlyMap<string, string>;
  /** Reasoning on, off, or as the client asked (auto). */
  thinking: 'on' | 'off' | 'auto';
  /** The provider's own request fragments for switching reasoning, from the config. */
  thinkingSwitch?: { on?: Record<string, unknown>; off?: Record<string, unknown> } | undefined;
}

export interface UpstreamAdapter {
  readonly kind: 'openai-compatible' | 'openrouter';
  /** True when one model name hides several endpoints that can be pinned (OpenRouter). */
  readonly hasEndpoints: boolean;
  /** Rewrites the parsed client body in place for this target. */
  shapeBody(body: ChatRequest, target: AttemptTarget): void;
  /** Which endpoint served, from a parsed completion or chunk; null when the answer does not say. */
  servedEndpoint(answer: { provider?: unknown }): string | null;
}

export interface EndpointInfo {
  /** The provider's display name, e.g. "DeepInfra": what answers name in `provider` and route ids use. */
  name: string;
  /** The endpoint's tag ("deepinfra/fp8"), or the provider's slug alone; its provider part is what order / ignore are sent. */
  tag: string | null;
  quantization: string | null;
  pricing: { prompt: number; completion: number } | null;
  contextLength: number | null;
}
