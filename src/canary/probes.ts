// The probe catalog: one fixed request per probe kind for a round, and what each probe's
// answer is judged by. Requests are deterministic (temperature 0, a fixed seed, fixed
// texts) so that rounds, and routes, are comparable.
import type { CheckName, Expectation } from '../quality/index.js';
import { CanaryError } from './errors.js';
import {
  CAPITAL_SCHEMA,
  FACT_ANSWERS,
  FACT_PROMPT,
  FILTER_MESSAGES,
  LANGUAGE_NAMES,
  LANGUAGE_PROMPTS,
  LANGUAGE_SYSTEM,
  LATENCY_PROMPT,
  PREFIX_MESSAGES,
  SCHEMA_PROMPT,
} from './probe-prompts.js';
import { PROBE_KINDS, type ProbeKind, type ProbeRequest } from './types.js';

export interface ProbeOptions {
  /** The configured languages (`canary.languages`); `language` must be one of them. */
  languages: readonly string[];
  /** The language this round's language probe asks for. */
  language: string;
  /** Cap for every probe but latency; small, since a canary is not a load test. Default 200. */
  maxTokens?: number;
}

export const DEFAULT_PROBE_MAX_TOKENS = 200;
/** Latency needs one token; the stream is aborted as soon as it comes. */
export const LATENCY_MAX_TOKENS = 16;
/** Fixed so that providers honouring `seed` sample the same way every round. */
export const PROBE_SEED = 20_251_129;
/** The language the fixed role-play probes (filter, prefix) are written in. */
export const PROBE_TEXT_LANGUAGE = 'en';

/** The languages a language probe can be written in (all 17 product languages). */
export const PROBE_LANGUAGES: readonly string[] = Object.keys(LANGUAGE_PROMPTS);

/** One request per probe kind, in `PROBE_KINDS` order. */
export function probeRequests(options: ProbeOptions): ProbeRequest[] {
  return PROBE_KINDS.map((kind) => probeRequest(kind, options));
}

/** The request of one kind (language confirmations re-send the language probe alone). */
export function probeRequest(kind: ProbeKind, options: ProbeOptions): ProbeRequest {
  const maxTokens = options.maxTokens ?? DEFAULT_PROBE_MAX_TOKENS;
  switch (kind) {
    case 'latency':
      return request(kind, null, [{ role: 'user', content: LATENCY_PROMPT }], LATENCY_MAX_TOKENS, { stream: true }, true);
    case 'filter':
      return request(kind, null, copy(FILTER_MESSAGES), maxTokens);
    case 'schema':
      return request(kind, null, [{ role: 'user', content: SCHEMA_PROMPT }], maxTokens, {
        response_format: { type: 'json_schema', json_schema: { name: 'capital_city', strict: true, schema: structuredClone(CAPITAL_SCHEMA) } },
      });
    case 'fact':
      return request(kind, null, [{ role: 'user', content: FACT_PROMPT }], maxTokens);
    case 'prefix':
      return request(kind, null, copy(PREFIX_MESSAGES), maxTokens);
    case 'language':
      return languageRequest(options, maxTokens);
  }
}

/** The checks a probe's answer goes through, and what they expect; latency is judged on timing alone. */
export interface ProbeJudging {
  checks: CheckName[];
  expectation: Expectation;
}

export function probeJudging(request: ProbeRequest): ProbeJudging {
  switch (request.kind) {
    case 'latency':
      return { checks: [], expectation: {} };
    case 'filter':
      // Refusal first: on a filtered empty reply, `content_filter` says more than `empty`.
      return { checks: ['refusal', 'nonempty'], expectation: { language: PROBE_TEXT_LANGUAGE } };
    case 'schema':
      return { checks: ['schema'], expectation: { schema: CAPITAL_SCHEMA, strictJson: true } };
    case 'fact':
      return { checks: ['fact'], expectation: { expected: FACT_ANSWERS } };
    case 'prefix':
      return { checks: ['prefix', 'encoding'], expectation: { language: PROBE_TEXT_LANGUAGE } };
    case 'language':
      return { checks: ['language', 'encoding'], expectation: request.language ? { language: request.language } : {} };
  }
}

function languageRequest(options: ProbeOptions, maxTokens: number): ProbeRequest {
  const { language } = options;
  if (!options.languages.includes(language)) {
    throw new CanaryError('language_not_configured', `language "${language}" is not one of the canary's languages (${options.languages.join(', ')})`);
  }
  // Own keys only: a name like "constructor" must not find Object's.
  const prompt = Object.hasOwn(LANGUAGE_PROMPTS, language) ? LANGUAGE_PROMPTS[language] : undefined;
  const name = Object.hasOwn(LANGUAGE_NAMES, language) ? LANGUAGE_NAMES[language] : undefined;
  if (prompt === undefined || name === undefined) {
    throw new CanaryError('unknown_probe_language', `no language probe for "${language}" (known: ${PROBE_LANGUAGES.join(', ')})`);
  }
  const messages = [
    { role: 'system', content: `${LANGUAGE_SYSTEM} Reply in ${name}.` },
    { role: 'user', content: prompt },
  ];
  return request('language', language, messages, maxTokens);
}

type Message = { role: string; content: string };

function request(kind: ProbeKind, language: string | null, messages: Message[], maxTokens: number, extra: Record<string, unknown> = {}, stopAtFirstToken = false): ProbeRequest {
  return {
    kind,
    language,
    body: { messages, max_tokens: maxTokens, temperature: 0, seed: PROBE_SEED, stream: false, ...extra },
    stopAtFirstToken,
  };
}

function copy(messages: readonly Message[]): Message[] {
  return messages.map((m) => ({ ...m }));
}
