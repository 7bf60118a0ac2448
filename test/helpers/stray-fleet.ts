// The fleet the dashboard's canary tests run against: one OpenRouter model served by a
// provider whose replies start with stray tokens (the canary quarantines it after two failed
// rounds half an hour apart), three healthy providers of it, and a direct small model.
import type { Fleet } from '../../src/sim/index.js';

export const STRAY_MODEL = 'deepseek/deepseek-chat';
export const STRAY = 'chat-main@openrouter/Stray';
export const HALF_HOUR = 30 * 60_000;

export function strayScenario(seed: number) {
  return {
    seed,
    providers: {
      Stray: { models: [STRAY_MODEL], faults: { prefix: 1 } },
      H01: { models: [STRAY_MODEL] },
      H02: { models: [STRAY_MODEL] },
      H03: { models: [STRAY_MODEL] },
      small: { models: ['gpt-4o-mini'] },
    },
  };
}

/** The gateway's providers over that fleet, as config YAML. */
export const strayProviders = (fleet: Fleet) => `providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
  direct:     { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}" }`;
