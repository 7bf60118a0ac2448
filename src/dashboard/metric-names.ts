// The /metrics names the dashboard reads (src/telemetry/metrics.ts writes them). Some are
// newer than others; every reader tolerates a metric that is absent.
export const METRIC = {
  /** {role, route, outcome}: one per request, at the route that answered or ended it. */
  requests: 'warden_requests_total',
  /** {role, route} histogram, seconds. */
  firstTokenSum: 'warden_first_token_seconds_sum',
  firstTokenCount: 'warden_first_token_seconds_count',
  /** {role, result}: primary | fallback | degraded | default | unavailable | client_error | failed. */
  roleResults: 'warden_role_requests_total',
  /** {role, reason, from_model, to_model}. */
  fallbacks: 'warden_fallbacks_total',
  /** {role, model}: one per role request, the model of its first attempt (the fallback rate's denominator). */
  firstAttempts: 'warden_first_attempts_total',
  /** {route, to}. */
  breakerTransitions: 'warden_breaker_transitions_total',
  /** {route}. */
  breakerOpenings: 'warden_breaker_openings_total',
  /** {route}. */
  breakerOpenSeconds: 'warden_breaker_open_seconds_total',
  /** {route, first_try}. */
  breakerRecoveries: 'warden_breaker_recoveries_total',
  /** {role}. */
  strictUnavailable: 'warden_strict_unavailable_total',
  /** {role, model}. */
  cost: 'warden_cost_usd_total',
  /** {role, route}: answers whose upstream sent no usage, in neither the tokens nor the cost. */
  withoutUsage: 'warden_answers_without_usage_total',
} as const;
