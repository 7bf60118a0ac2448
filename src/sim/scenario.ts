// A fleet scenario: which providers exist, what they serve, how fast and how faulty they
// are. Validated once at the boundary; everything inside trusts the inferred types.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { FAULT_NAMES, type FaultName, type Faults, withDefaults } from './faults.js';
import { interpolate } from '../config/index.js';
import type { RoutingNames } from './openrouter.js';

export class ScenarioError extends Error {
  readonly code = 'invalid_scenario';
  constructor(
    message: string,
    readonly issues: string[] = [],
  ) {
    super(message);
    this.name = 'ScenarioError';
  }
}

export function isScenarioError(e: unknown): e is ScenarioError {
  return e instanceof ScenarioError;
}

const PROBABILITY = 'expected a number between 0 and 1';
const probability = z.number({ error: PROBABILITY }).min(0, { error: PROBABILITY }).max(1, { error: PROBABILITY });
const nonNegative = (what: string) =>
  z.number({ error: `expected ${what}` }).min(0, { error: `expected ${what}` });

const faultShape = Object.fromEntries(FAULT_NAMES.map((name) => [name, probability.optional()])) as Record<
  FaultName,
  z.ZodOptional<typeof probability>
>;
export const faultsSchema = z.strictObject(faultShape);

const providerSchema = z.strictObject({
  /** OpenRouter's slug for the provider ("google-ai-studio" for "Google AI Studio"); by default the name, lowercased, spaces as "-". */
  slug: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, { error: 'expected a lowercase slug such as "google-ai-studio"' }).optional(),
  models: z.array(z.string().min(1), { error: 'expected a list of model ids' }).min(1, { error: 'expected at least one model' }),
  latencyMs: nonNegative('a number of milliseconds >= 0').default(0),
  firstTokenMs: nonNegative('a number of milliseconds >= 0').default(0),
  tokensPerSecond: nonNegative('a number of tokens per second >= 0 (0 = no delay)').default(0),
  replyTokens: z.number().int({ error: 'expected a whole number of tokens' }).min(1, { error: 'expected at least 1 token' }).default(40),
  quantization: z.string().optional(),
  price: z.strictObject({ input: nonNegative('a price >= 0').default(0), output: nonNegative('a price >= 0').default(0) }).optional(),
  faults: faultsSchema.optional(),
  retryAfter: nonNegative('a number of seconds >= 0').default(1),
  processingComments: z.boolean({ error: 'expected true or false' }).default(false),
  /** A reasoning model that shows its thinking: `reasoning_content` in messages and deltas. */
  reasoning: z.boolean({ error: 'expected true or false' }).default(false),
  apiKey: z.string({ error: 'expected a string' }).optional(),
  /** The header that carries apiKey: unset, `Authorization: Bearer <key>`; a name (Azure's `api-key`), the bare key in it. */
  keyHeader: z.string({ error: 'expected a header name' }).toLowerCase().optional(),
  /** Error answers and stream error events quote the request's Authorization, as some proxies' debug answers do. */
  quoteCredentials: z.boolean({ error: 'expected true or false' }).default(false),
  /**
   * The usage the provider reports. `final`: an answer's `usage`, and a stream's usage chunk at
   * its end when stream_options.include_usage asks; `running`: that, and every chunk of a stream
   * that asks carries the usage so far too (vLLM's continuous_usage_stats); `none`: never (an
   * upstream that ignores include_usage and leaves `usage` out of its answers).
   */
  usage: z.enum(['final', 'running', 'none'], { error: 'expected "final", "running" or "none"' }).default('final'),
  /** Answers one choice whatever the request's `n` asks, as many providers do. */
  ignoresN: z.boolean({ error: 'expected true or false' }).default(false),
  /** Streams stop after their first content chunk until the fleet's releaseStreams(): a test decides when a stream ends. */
  holdStreams: z.boolean({ error: 'expected true or false' }).default(false),
});

const modelSchema = z.strictObject({
  name: z.string().optional(),
  description: z.string().optional(),
  contextLength: z.number().int().positive().optional(),
  maxCompletionTokens: z.number().int().positive().optional(),
});

// Provider names appear in URL paths (percent-encoded) and in OpenRouter's `provider` field and
// preferences. A real aggregator writes whatever names it likes, so any text but "/" is allowed:
// tests play endpoints named in other scripts or with line breaks in them.
const providerName = /^[^/]+$/;

const scenarioSchema = z.strictObject({
  seed: z.number({ error: 'expected a number' }).int({ error: 'expected a whole number' }).default(1),
  models: z.record(z.string(), modelSchema).default({}),
  /** `price`: the aggregator picks a provider weighted by inverse square of price, as OpenRouter does by default; `ordered`: scenario order (predictable, for tests). */
  balancing: z.enum(['ordered', 'price'], { error: 'expected "ordered" or "price"' }).default('ordered'),
  /** What names a provider in the aggregator's order / only / ignore (see RoutingNames): `slugs` is OpenRouter's documented contract, `slugs-and-names` its practice. */
  routingNames: z.enum(['slugs', 'slugs-and-names'], { error: 'expected "slugs" or "slugs-and-names"' }).default('slugs-and-names'),
  providers: z
    .record(z.string().regex(providerName, { error: 'provider names are non-empty and contain no "/"' }), providerSchema)
    .refine((providers) => Object.keys(providers).length > 0, { error: 'expected at least one provider' }),
});

type ProviderInput = z.infer<typeof providerSchema>;

export interface ProviderSpec extends Omit<ProviderInput, 'faults' | 'price' | 'apiKey' | 'slug'> {
  /** The display name: the scenario's key, what OpenRouter answers carry in `provider`. */
  name: string;
  slug: string;
  faults: Faults;
  price: { input: number; output: number };
  /** Set and non-empty: requests must carry `Authorization: Bearer <apiKey>`, or the key in `keyHeader`. */
  apiKey?: string;
}

export type ModelInfo = z.infer<typeof modelSchema>;

export interface Scenario {
  seed: number;
  balancing: 'ordered' | 'price';
  routingNames: RoutingNames;
  models: Record<string, ModelInfo>;
  /** In scenario order: the order OpenRouter-style routing tries them. */
  providers: ProviderSpec[];
}

export function parseScenario(value: unknown, source = 'scenario'): Scenario {
  const result = scenarioSchema.safeParse(interpolateEnv(value));
  if (!result.success) {
    const issues = result.error.issues.map(describeIssue);
    throw new ScenarioError(`${source}: ${issues.join('; ')}`, issues);
  }
  const { seed, models, providers, balancing, routingNames } = result.data;
  return {
    seed,
    balancing,
    routingNames,
    models,
    providers: Object.entries(providers).map(([name, p]) => ({
      ...p,
      name,
      slug: p.slug ?? name.toLowerCase().replace(/\s+/g, '-'),
      faults: withDefaults(p.faults),
      price: { input: p.price?.input ?? 0, output: p.price?.output ?? 0 },
      // An unset `${VAR}` leaves an empty key, which means the provider takes anyone.
      apiKey: p.apiKey ? p.apiKey : undefined,
    })),
  };
}

export function loadScenario(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ScenarioError(`${file}: cannot read the scenario file (${(e as Error).message})`);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (e) {
    throw new ScenarioError(`${file}: not valid YAML (${(e as Error).message})`);
  }
  return parseScenario(value, file);
}

/** Validates a faults object (admin API, setFaults); missing faults are 0. */
export function parseFaults(value: unknown, source = 'faults'): Faults {
  const result = faultsSchema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map(describeIssue);
    throw new ScenarioError(`${source}: ${issues.join('; ')}`, issues);
  }
  return withDefaults(result.data as Partial<Faults>);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${formatPath([...path, key])}: unknown key`).join('; ');
  }
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) {
    return `${formatPath(path)}: required`;
  }
  return `${formatPath(path)}: ${issue.message}`;
}

function formatPath(path: string[]): string {
  return path.length ? path.join('.') : '(root)';
}

/** `${VAR}` and `${VAR:-default}` as the gateway's config reads them, except that an unset
 * variable is simply "" here: a scenario is a test fixture, not a deployment. */
function interpolateEnv(value: unknown): unknown {
  return interpolate(value, process.env, []);
}
