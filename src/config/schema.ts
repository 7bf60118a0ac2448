// The config file's shape. Validation happens once, here, at the boundary; the inferred
// types flow inward and nothing else re-checks them.
import { z } from 'zod';
import { LANGUAGE_PROMPTS } from '../canary/probe-prompts.js';
import { parseRouteId } from '../catalog/route-id.js';
import { CHECK_NAMES, schemaProblem } from '../quality/index.js';
import { duration, name, named, redisUrl, secret, webhookUrl } from './fields.js';
import { suggest } from './suggest.js';

export const TIERS = ['strict', 'degrade', 'default'] as const;

const timeouts = z.strictObject({
  connect: duration.optional(),
  firstByte: duration.optional(),
  firstToken: duration.optional(),
  total: duration.optional(),
});

const breakerFields = {
  /** Consecutive transport failures that open a route's breaker. */
  failures: z.number().int().min(1),
  /** First cooldown before a recovery probe; doubles on each reopening up to maxCooldown. */
  cooldown: duration,
  maxCooldown: duration,
  /** Failure-rate rule: at least minCalls calls within window, failureRate or more of them failed. */
  window: duration,
  minCalls: z.number().int().min(1),
  failureRate: z.number().gt(0).max(1),
  /** A half-open probe that has not reported after this long frees the probe slot. */
  probeTimeout: duration,
};
const BREAKER_DEFAULTS = { failures: 5, cooldown: 30_000, maxCooldown: 600_000, window: 60_000, minCalls: 20, failureRate: 0.5, probeTimeout: 60_000 };
/**
 * A model's own breaker settings: only the fields it writes. No defaults here: a default
 * would stand in for every field left out and hide the top-level value it should inherit.
 */
const breakerOverride = z.strictObject(breakerFields).partial();
const breaker = breakerOverride.transform((b) => ({ ...BREAKER_DEFAULTS, ...b }));

/** Request-body fragments that switch reasoning on or off in a provider's own way. */
const thinkingSwitch = z.strictObject({
  on: z.record(z.string(), z.unknown()).optional(),
  off: z.record(z.string(), z.unknown()).optional(),
});

const provider = z.strictObject({
  kind: z.enum(['openai-compatible', 'openrouter']),
  baseUrl: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }),
  apiKey: secret.optional(),
  /** Sent with every request; secrets all, since that is where keys such as Azure's `api-key` go. */
  headers: z.record(z.string(), secret).default({}),
  timeouts: timeouts.default({}),
  /** How often OpenRouter endpoint listings are refreshed. */
  discoveryInterval: duration.default(600_000),
  /** Keep-alive connections per upstream origin. */
  connections: z.number().int().min(1).max(65536).default(128),
  /** Attempts in flight to this provider at once, across every instance sharing the state; none when unset. */
  maxConcurrency: z.number().int().min(1).optional(),
  thinking: thinkingSwitch.optional(),
  /**
   * Ask for a stream's usage (`stream_options.include_usage`) when the client did not, so
   * streamed tokens and cost are counted; the usage chunk is taken out before the client reads
   * it. Off for a server that refuses the field.
   */
  streamUsage: z.boolean().default(true),
});

/** An OpenRouter provider slug: "google-ai-studio", not "Google AI Studio". */
const providerSlugPattern = /^[a-z0-9][a-z0-9._-]*$/i;
const listedRoute = z.strictObject({
  name: z.string().min(1),
  slug: z.string().regex(providerSlugPattern, { error: 'expected an OpenRouter provider slug such as "google-ai-studio" (letters, digits, ".", "_" and "-")' }),
});

const model = z.strictObject({
  provider: name,
  model: z.string().min(1),
  /**
   * OpenRouter only: `discover` makes each provider endpoint of the model a route; a list pins
   * the set, each entry the provider's display name, or `{name, slug}` when its slug (what
   * provider routing is sent) differs from the name beyond case.
   */
  routes: z.union([z.literal('discover'), z.array(z.union([z.string().min(1), listedRoute])).min(1)]).optional(),
  profile: z
    .strictObject({
      strengths: z.array(z.string()).default([]),
      languages: z.array(z.string()).default([]),
      price: z.strictObject({ input: z.number().min(0), output: z.number().min(0) }).optional(),
    })
    .optional(),
  timeouts: timeouts.default({}),
  breaker: breakerOverride.optional(),
});

/** Roles that pre-process or must be parsed: reasoning text would corrupt their result. */
export const STRUCTURED_ROLE_NAMES = ['intent', 'extraction', 'retrieval-rewrite', 'retrieval_rewrite', 'rewrite', 'classification', 'judge'] as const;

/**
 * A gradual rollout: the role's primary traffic split between models, sticky per caller key.
 * Either `candidate` + `weight` (percent to the candidate, the rest to models[0]) or `weights`
 * (each model's relative share); `auto` advances or rolls back on the figures by itself.
 */
const rollout = z
  .strictObject({
    candidate: name.optional(),
    weight: z.number().min(0).max(100).optional(),
    weights: named(z.number().min(0)).optional(),
    auto: z
      .strictObject({
        /** Candidate requests at a step before the rule decides. */
        after: z.number().int().min(1).default(200),
        /** How far above the incumbent's fallback and quality-failure rates the candidate's may be. */
        bound: z.number().min(0).max(1).default(0.05),
        /** The weights the candidate advances through; reaching 100 promotes it. */
        steps: z.array(z.number().gt(0).max(100)).min(1).default([10, 25, 50, 100]),
      })
      .optional(),
  })
  .superRefine((r, ctx) => {
    const candidateForm = r.candidate !== undefined || r.weight !== undefined;
    if (candidateForm && r.weights !== undefined) ctx.addIssue({ code: 'custom', path: ['weights'], message: 'expected either candidate with weight, or weights, not both' });
    else if (!candidateForm && r.weights === undefined) ctx.addIssue({ code: 'custom', path: [], message: 'expected candidate with weight (percent), or weights' });
    if (candidateForm && r.candidate === undefined) ctx.addIssue({ code: 'custom', path: ['candidate'], message: 'expected the model that takes the weight' });
    if (candidateForm && r.weight === undefined) ctx.addIssue({ code: 'custom', path: ['weight'], message: 'expected the candidate\u2019s share in percent, 0 to 100' });
    if (r.weights && !Object.values(r.weights).some((w) => w > 0)) ctx.addIssue({ code: 'custom', path: ['weights'], message: 'expected at least one weight above 0' });
    if (r.auto && !candidateForm) ctx.addIssue({ code: 'custom', path: ['auto'], message: 'automatic rules need the candidate form (candidate + weight)' });
    r.auto?.steps.forEach((step, i, steps) => {
      if (i > 0 && step <= steps[i - 1]!) ctx.addIssue({ code: 'custom', path: ['auto', 'steps', i], message: 'expected increasing percentages' });
    });
  });

const role = z.strictObject({
  tier: z.enum(TIERS).default('degrade'),
  models: z.array(name).min(1, 'expected at least one model'),
  /** The job, matched against model profiles' strengths when choosing a fallback; defaults to the role's name. */
  task: z.string().optional(),
  checks: z.array(z.enum(CHECK_NAMES)).default([]),
  maxFallbacks: z.number().int().min(0).default(2),
  thinking: z.enum(['on', 'off', 'auto']).default('auto'),
  /** Structured or pre-processing role: thinking is forced off. Defaults to true for the names in STRUCTURED_ROLE_NAMES. */
  structured: z.boolean().optional(),
  default: z.strictObject({ content: z.string() }).optional(),
  /** What a degrade role answers when its whole chain failed; without it, a 503. */
  degradeMessage: z.string().optional(),
  /** Expected reply language for the `language` check (a request may override with x-warden-language). */
  language: z.string().optional(),
  /** JSON Schema for the `schema` check. */
  schema: z.record(z.string(), z.unknown()).optional(),
  /** Accepted answers for the `fact` check. */
  expect: z.array(z.string()).optional(),
  minLength: z.number().int().min(1).optional(),
  /** Streams: hold the first characters or milliseconds back so the gate can still fall back. */
  holdBack: z.strictObject({ chars: z.number().int().min(1).default(200), ms: duration.default(1_500) }).optional(),
  /** 429 handling: wait out a Retry-After up to maxWait, at most budget per request. */
  retry: z.strictObject({ maxWait: duration.default(5_000), budget: duration.default(10_000) }).default({ maxWait: 5_000, budget: 10_000 }),
  escalation: z
    .strictObject({
      model: name,
      threshold: z.number().min(0).max(1).default(0.7),
      /** Words or phrases that mark a hard request; any match sets the score to at least keywordFloor. */
      keywords: z.array(z.string().min(1)).default([]),
      keywordFloor: z.number().min(0).max(1).default(0.75),
      thinking: z.enum(['on', 'off', 'auto']).default('on'),
    })
    .optional(),
  rollout: rollout.optional(),
});

const server = z.strictObject({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(8787),
  // An empty key matched the empty token of any request whose Authorization was not
  // "Bearer <something>" (a Basic header, a bare "Bearer"): a gateway that looked protected
  // let everyone in. An empty admin token means "admin off"; an empty client key is refused.
  clientKeys: z.array(secret.refine((key) => !key.isEmpty, { error: 'a client key is empty (an unset variable with an empty ${VAR:-} fallback?); remove it, or leave clientKeys out to serve without keys on loopback' })).default([]),
  adminToken: secret.optional(),
  /** Named admin tokens: the name is who the audit log says acted (`adminToken` is named "admin"). */
  adminTokens: z.array(z.strictObject({ name, token: secret })).default([]),
  bodyLimit: z.number().int().min(1024).default(4 * 1024 * 1024),
  /**
   * A whole request, headers and body, must arrive within this, or it is answered 408: a client
   * trickling its body (slowloris) holds a connection no longer. node:http's own default is 300 s.
   */
  requestTimeout: duration.default(60_000),
  /** The request line and headers must arrive within this (at most requestTimeout). */
  headersTimeout: duration.default(15_000),
  /** Serving without client keys on a non-loopback address must be asked for explicitly. */
  allowAnonymous: z.boolean().default(false),
  /** When a route leaves service, how long its in-flight requests may still finish before being aborted. */
  drainWindow: duration.default(2_000),
  /**
   * On SIGTERM/SIGINT, how long requests in flight may still finish; streams still open then
   * end with an SSE error event, other requests with a 503. Below Kubernetes' default
   * terminationGracePeriodSeconds (30 s), with room left to close the store.
   */
  shutdownGrace: duration.default(20_000),
  /** How often the dashboard reads /metrics into its time series (it keeps the last 360 points). */
  dashboardSample: duration.default(5_000),
}).superRefine((s, ctx) => {
  // 0 would switch node:http's limit off: the slow-request hold this setting exists to end.
  if (s.requestTimeout <= 0) ctx.addIssue({ code: 'custom', path: ['requestTimeout'], message: 'expected a duration above 0 such as 60s: 0 would let a slow client hold a connection for ever' });
  if (s.headersTimeout <= 0) ctx.addIssue({ code: 'custom', path: ['headersTimeout'], message: 'expected a duration above 0 such as 15s: 0 would let a slow client hold a connection for ever' });
  else if (s.headersTimeout > s.requestTimeout) ctx.addIssue({ code: 'custom', path: ['headersTimeout'], message: `expected at most server.requestTimeout (${s.requestTimeout} ms): the headers are part of the request` });
});

const state = z.union([
  z.strictObject({ memory: z.literal(true) }),
  z.strictObject({ sqlite: z.string().min(1) }),
  z.strictObject({ redis: redisUrl }),
]);

const canary = z.strictObject({
  /** observe: compute everything and record "would quarantine", change nothing; enforce: act. */
  mode: z.enum(['observe', 'enforce']).default('observe'),
  interval: duration.default(1_800_000),
  /** Models whose every route is probed each round. */
  watch: z.array(name).default([]),
  /** Rotated through round by round by the language probe: languages it has a prompt for. */
  languages: z.array(z.string().refine((l) => Object.hasOwn(LANGUAGE_PROMPTS, l), { error: (i) => `no language probe for "${String(i.input)}" (known: ${Object.keys(LANGUAGE_PROMPTS).join(', ')})` })).default(['en']),
  firstTokenLimit: duration.default(10_000),
  failedRounds: z.number().int().min(1).default(2),
  cleanRounds: z.number().int().min(1).default(2),
  ladder: z.array(duration).min(1).default([86_400_000, 3 * 86_400_000, 7 * 86_400_000]),
  forgiveAfter: duration.default(14 * 86_400_000),
  capacityFloor: z.number().int().min(0).default(2),
  /** Routes known to filter: they must fail the filter probe, or the probe is invalid for the round. */
  controls: z.array(z.string()).default([]),
  /** Routes probed at once; one slow route does not hold the others' verdicts. */
  concurrency: z.number().int().min(1).max(64).default(4),
  /** Completion tokens a round may spend; probes past it are inconclusive. */
  tokenBudget: z.number().int().min(1).default(50_000),
});

/** The canary section as it would read with only `watch` written: the seeds' defaults. */
export function defaultCanaryConfig(watch: string[]): CanaryConfig {
  return canary.parse({ watch });
}

const notify = z.strictObject({
  /** Key changes (quarantine, release, floor held, probe invalidated, config faults) are POSTed here as JSON. */
  webhooks: z.array(webhookUrl).default([]),
  timeout: duration.default(5_000),
  retries: z.number().int().min(0).max(10).default(3),
});

const blockEntry = z.strictObject({ route: z.string().min(1), reason: z.string().min(1) });

const telemetry = z.strictObject({
  /** OTLP/HTTP (JSON) trace export; without it no tracer exists and requests pay nothing for tracing. */
  otlp: z
    .strictObject({
      endpoint: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL such as http://collector:4318/v1/traces' }),
      /** Sent with every export (a collector's API key, say): secrets, never logged. */
      headers: z.record(z.string(), secret).default({}),
      serviceName: z.string().min(1).default('warden'),
    })
    .optional(),
});

export const configSchema = z
  .strictObject({
    server: server.default(server.parse({})),
    // The embedded default: one instance, persistent, nothing to install.
    state: state.default({ sqlite: './data/warden.db' }),
    breaker: breaker.default(BREAKER_DEFAULTS),
    timeouts: timeouts.default({}),
    providers: named(provider),
    models: named(model),
    roles: named(role).default({}),
    canary: canary.optional(),
    notify: notify.default({ webhooks: [], timeout: 5_000, retries: 3 }),
    blocklist: z.array(blockEntry).default([]),
    telemetry: telemetry.optional(),
  })
  .superRefine((config, ctx) => {
    for (const [modelName, m] of Object.entries(config.models)) {
      const p = Object.hasOwn(config.providers, m.provider) ? config.providers[m.provider] : undefined;
      if (!p) {
        ctx.addIssue({ code: 'custom', path: ['models', modelName, 'provider'], message: `unknown provider "${m.provider}"${suggest(m.provider, Object.keys(config.providers))}` });
      } else if (m.routes !== undefined && p.kind !== 'openrouter') {
        ctx.addIssue({ code: 'custom', path: ['models', modelName, 'routes'], message: `routes apply only to openrouter providers; "${m.provider}" is ${p.kind}` });
      }
      if (Object.hasOwn(config.roles, modelName)) {
        ctx.addIssue({ code: 'custom', path: ['models', modelName], message: `"${modelName}" is both a model and a role; requests could not tell them apart` });
      }
    }
    for (const [roleName, r] of Object.entries(config.roles)) {
      r.models.forEach((m, i) => {
        if (!Object.hasOwn(config.models, m)) ctx.addIssue({ code: 'custom', path: ['roles', roleName, 'models', i], message: `unknown model "${m}"${suggest(m, Object.keys(config.models))}` });
      });
      if (r.escalation && !Object.hasOwn(config.models, r.escalation.model)) {
        ctx.addIssue({ code: 'custom', path: ['roles', roleName, 'escalation', 'model'], message: `unknown model "${r.escalation.model}"${suggest(r.escalation.model, Object.keys(config.models))}` });
      }
      if (r.checks.includes('schema') && !r.schema) {
        ctx.addIssue({ code: 'custom', path: ['roles', roleName, 'schema'], message: 'the schema check needs a JSON Schema here' });
      }
      // A schema that does not compile would fail every reply of the role: refused here, with Ajv's reason.
      const problem = r.schema && schemaProblem(r.schema);
      if (problem) ctx.addIssue({ code: 'custom', path: ['roles', roleName, 'schema'], message: problem });
      if (r.rollout) checkRollout(config, roleName, r, ctx);
      if (r.tier === 'default' && !r.default) {
        ctx.addIssue({ code: 'custom', path: ['roles', roleName, 'default'], message: 'tier "default" needs a default answer, e.g. default: { content: "..." }' });
      }
    }
    const tokenNames = new Set<string>(config.server.adminToken ? ['admin'] : []);
    config.server.adminTokens.forEach((t, i) => {
      if (tokenNames.has(t.name)) ctx.addIssue({ code: 'custom', path: ['server', 'adminTokens', i, 'name'], message: `"${t.name}" is already taken${t.name === 'admin' ? ' by server.adminToken' : ''}; the audit log must tell admins apart` });
      tokenNames.add(t.name);
    });
    config.blocklist.forEach((entry, i) => {
      const parts = parseRouteId(entry.route);
      if (!parts) ctx.addIssue({ code: 'custom', path: ['blocklist', i, 'route'], message: `expected a route id like model@provider or model@provider/Endpoint, got "${entry.route}"` });
      else if (!Object.hasOwn(config.models, parts.model)) ctx.addIssue({ code: 'custom', path: ['blocklist', i, 'route'], message: `unknown model "${parts.model}"${suggest(parts.model, Object.keys(config.models))}` });
    });
    config.canary?.watch.forEach((m, i) => {
      if (!Object.hasOwn(config.models, m)) ctx.addIssue({ code: 'custom', path: ['canary', 'watch', i], message: `unknown model "${m}"${suggest(m, Object.keys(config.models))}` });
    });
  });

function checkRollout(config: { models: Record<string, unknown> }, roleName: string, r: z.output<typeof role>, ctx: z.RefinementCtx): void {
  const at = (...rest: (string | number)[]) => ['roles', roleName, 'rollout', ...rest];
  const known = Object.keys(config.models);
  const { candidate, weights } = r.rollout!;
  if (candidate !== undefined) {
    if (!Object.hasOwn(config.models, candidate)) ctx.addIssue({ code: 'custom', path: at('candidate'), message: `unknown model "${candidate}"${suggest(candidate, known)}` });
    else if (candidate === r.models[0]) ctx.addIssue({ code: 'custom', path: at('candidate'), message: `"${candidate}" is already the role's primary model` });
  }
  for (const m of Object.keys(weights ?? {})) {
    if (!Object.hasOwn(config.models, m)) ctx.addIssue({ code: 'custom', path: at('weights', m), message: `unknown model "${m}"${suggest(m, known)}` });
  }
}

export { nameProblem } from './fields.js';

export type WardenConfig = z.output<typeof configSchema>;
export type ProviderConfig = WardenConfig['providers'][string];
export type ModelConfig = WardenConfig['models'][string];
export type RoleConfig = WardenConfig['roles'][string];
export type TimeoutConfig = z.output<typeof timeouts>;
export type BreakerConfig = z.output<typeof breaker>;
export type CanaryConfig = z.output<typeof canary>;
export type NotifyConfig = z.output<typeof notify>;
export type ThinkingMode = RoleConfig['thinking'];
export type RolloutConfig = NonNullable<RoleConfig['rollout']>;
