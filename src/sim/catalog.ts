// The model listings the fleet serves: OpenAI's `/v1/models` per provider, and OpenRouter's
// model list and per-model endpoint list (what the gateway's route discovery reads).
import type { ModelInfo, ProviderSpec, Scenario } from './scenario.js';

const DEFAULT_CONTEXT = 32768;
const SUPPORTED_PARAMETERS = [
  'max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'response_format', 'structured_outputs', 'tools', 'tool_choice',
];
const ARCHITECTURE = {
  modality: 'text->text',
  input_modalities: ['text'],
  output_modalities: ['text'],
  tokenizer: 'Other',
  instruct_type: null,
};

export function providerModels(provider: ProviderSpec, created: number) {
  return {
    object: 'list',
    data: provider.models.map((id) => ({ id, object: 'model', created, owned_by: provider.name })),
  };
}

/** Every model any provider serves, in order of first appearance. */
export function servedModels(scenario: Scenario): string[] {
  const seen = new Set<string>();
  for (const p of scenario.providers) for (const m of p.models) seen.add(m);
  return [...seen];
}

export function openRouterModels(scenario: Scenario, created: number) {
  return {
    data: servedModels(scenario).map((id) => {
      const info = scenario.models[id] ?? {};
      const first = scenario.providers.find((p) => p.models.includes(id));
      return {
        id,
        canonical_slug: id,
        name: info.name ?? id,
        created,
        description: info.description ?? '',
        context_length: info.contextLength ?? DEFAULT_CONTEXT,
        architecture: ARCHITECTURE,
        pricing: first ? pricing(first) : pricing(undefined),
        top_provider: { context_length: info.contextLength ?? DEFAULT_CONTEXT, max_completion_tokens: info.maxCompletionTokens ?? null, is_moderated: false },
        per_request_limits: null,
        supported_parameters: SUPPORTED_PARAMETERS,
      };
    }),
  };
}

/** null when no provider serves the model (the caller answers 404). */
export function openRouterEndpoints(scenario: Scenario, model: string, created: number) {
  const serving = scenario.providers.filter((p) => p.models.includes(model));
  if (serving.length === 0) return null;
  const info: ModelInfo = scenario.models[model] ?? {};
  const context = info.contextLength ?? DEFAULT_CONTEXT;
  return {
    data: {
      id: model,
      name: info.name ?? model,
      created,
      description: info.description ?? '',
      architecture: ARCHITECTURE,
      endpoints: serving.map((p) => ({
        name: `${p.name} | ${model}`,
        model_name: info.name ?? model,
        context_length: context,
        pricing: pricing(p),
        provider_name: p.name,
        tag: endpointTag(p),
        quantization: p.quantization ?? null,
        max_completion_tokens: info.maxCompletionTokens ?? null,
        max_prompt_tokens: null,
        supported_parameters: SUPPORTED_PARAMETERS,
        status: 0,
        uptime_last_30m: 100,
      })),
    },
  };
}

/** As OpenRouter tags an endpoint: the provider's slug, and its variant (here the quantization) after a "/". */
export function endpointTag(provider: ProviderSpec): string {
  return provider.quantization ? `${provider.slug}/${provider.quantization}` : provider.slug;
}

/** Scenario prices are per million tokens; OpenRouter lists per token as decimal strings. */
function pricing(provider: ProviderSpec | undefined) {
  return {
    prompt: perToken(provider?.price.input ?? 0),
    completion: perToken(provider?.price.output ?? 0),
    request: '0',
    image: '0',
  };
}

function perToken(perMillion: number): string {
  if (perMillion === 0) return '0';
  return (perMillion / 1e6).toFixed(15).replace(/0+$/, '').replace(/\.$/, '');
}
