// For gate tests over the simulated fleet: one provider (and one model, named after it) per
// sim provider, and a stream read to its end through the official openai client.
import type { Fleet } from '../../src/sim/index.js';
import type { Harness } from './harness.js';

export const HELLO = [{ role: 'user' as const, content: 'Hello there, how are you?' }];
export const REPLY_SCHEMA = { type: 'object', properties: { reply: { type: 'string' } }, required: ['reply'], additionalProperties: false };
export const JSON_FORMAT = { type: 'json_schema' as const, json_schema: { name: 'reply', schema: REPLY_SCHEMA } };

/** A scenario of the named sim providers, each serving `name-model`; `specs` adds to some. */
export function simScenario(seed: number, names: readonly string[], specs: Record<string, object> = {}) {
  return { seed, providers: Object.fromEntries(names.map((name) => [name, { models: [`${name}-model`], ...specs[name] }])) };
}

/**
 * A gateway config: provider `name` at the sim's provider `name`, model `name` on its
 * `name-model`, then the `roles:` lines; `extra` adds provider and model lines of its own.
 */
export function simFleetYaml(fleet: Fleet, names: readonly string[], roles: string, extra: { providers?: string; models?: string } = {}): string {
  const providers = names.map((n) => `  ${n}: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl(n)}" }`);
  const models = names.map((n) => `  ${n}: { provider: ${n}, model: ${n}-model }`);
  if (extra.providers) providers.push(extra.providers);
  if (extra.models) models.push(extra.models);
  return `\nproviders:\n${providers.join('\n')}\nmodels:\n${models.join('\n')}\nroles:\n${roles}\n`;
}

/** How many requests the sim provider got. */
export const served = (fleet: Fleet, provider: string) => fleet.stats().providers[provider]!.requests;

/** Zeroes every provider's faults and the fleet's counters, between tests. */
export function cleanFleet(h: Harness, names: readonly string[]): void {
  for (const name of names) h.fleet.setFaults(name, {});
  h.fleet.reset();
}

/**
 * Streams a request (`n` choices) to its end; the Warden headers and what the client assembled
 * of each choice (`texts`, `finishes` by index; `text` and `finish` are choice 0's).
 */
export async function streamToEnd(h: Harness, model: string, format?: typeof JSON_FORMAT, n = 1) {
  const { data, response } = await h.client.chat.completions.create({ model, messages: HELLO, stream: true, response_format: format, n: n > 1 ? n : undefined }).withResponse();
  const texts: string[] = Array(n).fill('');
  const finishes: Array<string | null> = Array(n).fill(null);
  for await (const chunk of data) {
    for (const choice of chunk.choices) {
      texts[choice.index] += choice.delta?.content ?? '';
      finishes[choice.index] = choice.finish_reason ?? finishes[choice.index]!;
    }
  }
  await h.fleet.waitFor((s) => s.openStreams === 0);
  return { route: response.headers.get('x-warden-route'), fallback: response.headers.get('x-warden-fallback'), text: texts[0]!, finish: finishes[0]!, texts, finishes };
}
