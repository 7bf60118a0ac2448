// The canary's vocabulary: probes, their results, a route's round verdict, and the state
// kept per route between rounds (serialisable: it lives in the Store).

export type ProbeKind = 'latency' | 'filter' | 'schema' | 'fact' | 'prefix' | 'language';
export const PROBE_KINDS: readonly ProbeKind[] = ['latency', 'filter', 'schema', 'fact', 'prefix', 'language'];

/** What a probe sends: a chat request body without `model` (the runner pins it to the route). */
export interface ProbeRequest {
  kind: ProbeKind;
  /** For language probes: the language asked for. */
  language: string | null;
  /** Request body fields: messages, max_tokens, response_format, stream, … */
  body: Record<string, unknown>;
  /** Latency probes: the stream is aborted once the first token arrives. */
  stopAtFirstToken: boolean;
}

/** What came back from one pinned probe request, before judging. */
export interface ProbeExchange {
  /**
   * `ok`: a 200 with an answer; `transport`: connect error, timeout, 429, 5xx; `client`: other 4xx;
   * `config`: 401/403; `internal`: Warden failed while reading the answer (its own code threw),
   * which says nothing about the route.
   */
  outcome: 'ok' | 'transport' | 'client' | 'config' | 'internal';
  status: number | null;
  text: string;
  finishReason: string | null;
  firstTokenMs: number | null;
  totalMs: number;
  /** Stable code of a transport or client failure: `upstream_timeout_first_token`, `upstream_status_503`, … */
  error: string | null;
}

export type ProbeVerdict = 'pass' | 'fail' | 'transport' | 'inconclusive';

export interface ProbeEvidence {
  firstTokenMs?: number | null;
  totalMs?: number;
  /** The first ~160 characters of the answer, as received. */
  snippet?: string;
  parsed?: unknown;
  parseError?: string;
  /** Detected languages with scores, from the language detector's evidence. */
  languages?: unknown;
  error?: string;
  /** Transport and client failures: the HTTP status, when there was one. */
  status?: number | null;
  finishReason?: string | null;
  /** The detector that decided a fail or inconclusive verdict, its sentence and its own evidence (the offending span). */
  check?: string;
  detail?: string;
  found?: Record<string, unknown>;
  /** Language probes: the verdicts of the first probe and its two confirmations. */
  confirmations?: ProbeVerdict[];
}

export interface ProbeResult {
  kind: ProbeKind;
  language: string | null;
  verdict: ProbeVerdict;
  /** Stable code: `ok`, `first_token_slow`, `refusal`, `json_wrapped_in_prose`, `mixed_language`, `upstream_status_503`, … */
  reason: string;
  evidence: ProbeEvidence;
  /** Set when the probe was declared invalid for the round (a positive control passed it). */
  invalidated?: boolean;
}

/** Why a probe of a round was never sent (inconclusive): the round's token budget ran out, or the gateway is stopping. */
export const UNSENT_REASONS = { budget: 'token_budget_spent', stopped: 'canary_stopped' } as const;

/** Why a probe is inconclusive when Warden itself failed while reading its answer: the route was not tested. */
export const WARDEN_FAILED_REASON = 'gateway_internal_error';

/** A route's round: `fail` and `pass` move its counters; `transport` and `inconclusive` freeze them. */
export type RoundVerdict = 'pass' | 'fail' | 'transport' | 'inconclusive';

export interface RouteRound {
  route: string;
  at: number;
  verdict: RoundVerdict;
  probes: ProbeResult[];
  /** The failing probes' reasons, for the audit: `prefix:stray_prefix`, … */
  reasons: string[];
}

export interface Quarantine {
  since: number;
  until: number;
  /** Ladder step taken: 0 → 1 d, 1 → 3 d, 2 → 7 d. */
  step: number;
  reasons: string[];
}

/** Everything the canary remembers about one route between rounds. */
export interface CanaryRouteState {
  consecutiveFailedRounds: number;
  /** While quarantined: clean rounds in a row (early release at the threshold). */
  consecutiveCleanRounds: number;
  quarantine: Quarantine | null;
  /** The last quarantine's step and when it ended, for the ladder (reset after the forgiveness period). */
  ladder: { lastStep: number; lastEndedAt: number | null } | null;
  /** Observe mode: the route would be quarantined now. */
  wouldQuarantine: boolean;
  /** Next language to probe; held on the same language after an anomaly. */
  languageCursor: number;
  retestLanguage: string | null;
  lastRound: RouteRound | null;
}

export const INITIAL_ROUTE_STATE: CanaryRouteState = {
  consecutiveFailedRounds: 0,
  consecutiveCleanRounds: 0,
  quarantine: null,
  ladder: null,
  wouldQuarantine: false,
  languageCursor: 0,
  retestLanguage: null,
  lastRound: null,
};

/** The canary's rules, with the seeds' numbers as defaults (config `canary:`). */
export interface CanaryPolicy {
  mode: 'observe' | 'enforce';
  firstTokenLimitMs: number;
  failedRoundsToQuarantine: number;
  cleanRoundsToRelease: number;
  /** Quarantine lengths per ladder step, ms: [1 d, 3 d, 7 d]. */
  ladder: number[];
  /** A ladder with no new quarantine for this long starts again at the first step. */
  forgiveAfter: number;
  /** Never leave fewer routes of a model in service than this. */
  capacityFloor: number;
  languages: string[];
}
