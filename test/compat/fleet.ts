// What the client compatibility suites share: a seeded fleet and a gateway in front of it
// (with a client key, so every client must send its Authorization header), the targets a
// request can name, the schemas of the tool and of the structured reply, and a reference
// answer fetched without any client library.
import { z } from 'zod';
import type { Fleet, RecentRequest } from '../../src/sim/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';

export const CLIENT_KEY = 'ck-compat-7f3a';

const SCENARIO = {
  seed: 23,
  providers: {
    // OpenRouter endpoints of one model. Alpha answers first (ordered balancing), sends
    // OpenRouter's keep-alive comments, and streams in several writes, not one.
    Alpha: { models: ['deepseek/deepseek-chat'], processingComments: true, tokensPerSecond: 2000 },
    Beta: { models: ['deepseek/deepseek-chat'] },
    // A provider's own OpenAI-compatible API: the whole stream in one write.
    small: { models: ['gpt-4o-mini'] },
  },
};

function configYaml(fleet: Fleet): string {
  return `
server: { clientKeys: ["${CLIENT_KEY}"] }
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
  direct:     { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}" }
models:
  chat-main:  { provider: openrouter, model: deepseek/deepseek-chat, routes: discover }
  chat-small: { provider: direct, model: gpt-4o-mini }
roles:
  chat: { tier: degrade, models: [chat-main, chat-small] }
  # refusal included: its end-of-sentence rule must not judge the hold-back window, which
  # may end anywhere (after a comma, inside a JSON object).
  guarded: { tier: degrade, models: [chat-main, chat-small], checks: [nonempty, prefix, encoding, refusal], holdBack: { chars: 40, ms: 1s } }
`;
}

export function startCompatHarness(): Promise<Harness> {
  return startHarness({ scenario: SCENARIO, configYaml, clientKey: CLIENT_KEY });
}

/** A `model` a client names, and the fleet provider and upstream model that must serve it. */
export interface Target {
  label: string;
  model: string;
  servedBy: string;
  upstreamModel: string;
  /** The fleet path the gateway calls. */
  path: RegExp;
}

export const TARGETS: readonly Target[] = [
  { label: 'direct model chat-small', model: 'chat-small', servedBy: 'small', upstreamModel: 'gpt-4o-mini', path: /^\/p\/small\/v1\/chat\/completions$/ },
  { label: 'role chat via discovered OpenRouter endpoints', model: 'chat', servedBy: 'Alpha', upstreamModel: 'deepseek/deepseek-chat', path: /^\/api\/v1\/chat\/completions$/ },
  {
    label: 'role guarded: quality checks and a stream hold-back',
    model: 'guarded',
    servedBy: 'Alpha',
    upstreamModel: 'deepseek/deepseek-chat',
    path: /^\/api\/v1\/chat\/completions$/,
  },
];

export const PROMPTS = {
  /** The fleet answers fact questions with the bare answer. */
  fact: 'What is the capital of France?',
  /** Several sentences: a stream of many chunks. */
  open: 'Tell me something about your morning, please.',
  tool: 'What will the weather be in Lisbon over the next few days?',
  structured: 'Describe the capital of France as structured data.',
};

/** The tool every client is forced to call. The fleet fills arguments from the schema. */
export const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Forecast for a city',
  schema: z.object({
    city: z.string().min(1),
    unit: z.enum(['celsius', 'fahrenheit']),
    days: z.number().int().min(1).max(7),
  }),
};

/** The structured reply: nested objects, an array, integers, an enum and a boolean. */
export const CITY_REPORT = {
  name: 'city_report',
  schema: z.object({
    city: z.string().min(1),
    country: z.string().min(1),
    population: z.number().int().min(0),
    climate: z.enum(['temperate', 'tropical', 'arid']),
    coastal: z.boolean(),
    landmarks: z.array(z.object({ name: z.string().min(1), year: z.number().int() })).min(1),
  }),
};

export type CityReport = z.infer<typeof CITY_REPORT.schema>;

export interface Reference {
  content: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** The non-streamed answer to one user message, fetched with plain HTTP: what clients must match. */
export async function reference(h: Harness, model: string, prompt: string, seed: number): Promise<Reference> {
  const res = await fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${CLIENT_KEY}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: prompt }], seed }),
  });
  if (res.status !== 200) throw new Error(`reference request answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { choices: { message: { content: string } }[]; usage: Reference['usage'] };
  return { content: body.choices[0]!.message.content, usage: body.usage };
}

/** The fleet's record of the last request the gateway sent upstream, once it has ended. */
export async function lastUpstream(fleet: Fleet): Promise<RecentRequest> {
  const stats = await fleet.waitFor((s) => s.openRequests === 0 && s.recent.length > 0);
  return stats.recent.at(-1)!;
}
