// Prometheus metrics. The request path pays Map lookups, never prom-client's label hashing:
// hot counters and the latency histograms are batched (BatchedCounter, BatchedHistogram).
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { BatchedHistogram } from './batched-histogram.js';
import { BatchedCounter } from './batched-counter.js';

export type Outcome =
  | 'ok'
  | 'client_error'
  | 'rate_limited'
  | 'upstream_error'
  | 'timeout'
  | 'invalid_response'
  | 'stream_error'
  | 'client_aborted'
  | 'shutting_down'
  /** Warden failed while answering (writing to the client, its own code): not the route's fault. */
  | 'internal_error';

/**
 * How an upstream attempt ended: `none` answered; the UpstreamFailure kinds (`connect`,
 * `timeout`, `reset`, `invalid_response`, `aborted`, `shed`, `internal`); an error status by class
 * (`upstream_status` for 5xx/408/529, `rate_limited`, `client`, `config`); `quality` for an
 * answer the gate failed.
 */
export type ErrorClass =
  | 'none'
  | 'connect'
  | 'timeout'
  | 'reset'
  | 'invalid_response'
  | 'aborted'
  | 'shed'
  | 'internal'
  | 'upstream_status'
  | 'rate_limited'
  | 'client'
  | 'config'
  | 'quality';

export type RoleResult = 'primary' | 'fallback' | 'degraded' | 'default' | 'unavailable' | 'client_error' | 'failed';

/** Results that answered with a stand-in instead of a model's answer: the degraded share. */
const DEGRADED: ReadonlySet<string> = new Set<RoleResult>(['degraded', 'default']);
const BREAKER_STATE_VALUE: Record<string, number> = { closed: 0, half_open: 1, open: 2 };

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #requests = new BatchedCounter({ name: 'warden_requests_total', help: 'Chat completion requests by role, route and outcome', labelNames: ['role', 'route', 'outcome'], registry: this.registry });
  readonly #duration = new BatchedHistogram({ name: 'warden_request_duration_seconds', help: 'Time from request to the last byte of the answer', labelNames: ['role', 'route'], buckets: LATENCY_BUCKETS, registry: this.registry });
  readonly #firstToken = new BatchedHistogram({ name: 'warden_first_token_seconds', help: 'Time from request to the first token of a stream: content, a tool call, or a thinking model\'s reasoning', labelNames: ['role', 'route'], buckets: LATENCY_BUCKETS, registry: this.registry });
  readonly #rejected = new Counter({ name: 'warden_rejected_requests_total', help: 'Requests refused before reaching a route, by error code', labelNames: ['code'], registers: [this.registry] });
  readonly #roleResults = new BatchedCounter({ name: 'warden_role_requests_total', help: 'Requests per role by result: primary, fallback, degraded, default, unavailable, client_error, failed', labelNames: ['role', 'result'], registry: this.registry });
  readonly #breakerTransitions = new Counter({ name: 'warden_breaker_transitions_total', help: 'Circuit breaker transitions by route and new state', labelNames: ['route', 'to'], registers: [this.registry] });
  readonly #breakerOpenSeconds = new Counter({ name: 'warden_breaker_open_seconds_total', help: 'Time routes spent out of closed state, counted when they close', labelNames: ['route'], registers: [this.registry] });
  readonly #recoveries = new Counter({ name: 'warden_breaker_recoveries_total', help: 'Breaker closings by whether the first recovery probe succeeded', labelNames: ['route', 'first_try'], registers: [this.registry] });
  readonly #escalations = new Counter({ name: 'warden_escalations_total', help: 'Requests escalated to a stronger model, by deciding signal', labelNames: ['role', 'signal'], registers: [this.registry] });
  readonly #qualityFailures = new Counter({ name: 'warden_quality_failures_total', help: 'Answers that failed the quality gate, by check and reason', labelNames: ['role', 'route', 'check', 'reason'], registers: [this.registry] });
  readonly #cost = new BatchedCounter({ name: 'warden_cost_usd_total', help: 'Token cost from usage and configured prices, per role and model', labelNames: ['role', 'model'], registry: this.registry });
  readonly #tokens = new BatchedCounter({ name: 'warden_tokens_total', help: 'Tokens from usage, per role, model and kind', labelNames: ['role', 'model', 'kind'], registry: this.registry });
  readonly #withoutUsage = new BatchedCounter({ name: 'warden_answers_without_usage_total', help: 'Answers (200, streamed or not) whose upstream sent no usage: their tokens and cost are in neither warden_tokens_total nor warden_cost_usd_total', labelNames: ['role', 'route'], registry: this.registry });
  readonly #attempts = new BatchedCounter({ name: 'warden_upstream_attempts_total', help: 'Upstream attempts by route and error class (none when answered)', labelNames: ['route', 'error_class'], registry: this.registry });
  readonly #firstAttempts = new BatchedCounter({ name: 'warden_first_attempts_total', help: 'Role requests by the model of their first attempt: the denominator of the fallback rate per model', labelNames: ['role', 'model'], registry: this.registry });
  readonly #fallbacks = new BatchedCounter({ name: 'warden_fallbacks_total', help: 'Role requests that left their first route after a failure, by reason, first model and answering model (none: the tier answered)', labelNames: ['role', 'reason', 'from_model', 'to_model'], registry: this.registry });
  readonly #strictUnavailable = new BatchedCounter({ name: 'warden_strict_unavailable_total', help: 'The 503 a strict-tier role answers when its model could not', labelNames: ['role'], registry: this.registry });
  readonly #breakerState = new Gauge({ name: 'warden_breaker_state', help: 'Breaker state per route since its first transition here or adopted from another instance: 0 closed, 1 half_open, 2 open', labelNames: ['route'], registers: [this.registry] });
  readonly #breakerOpenings = new Counter({ name: 'warden_breaker_openings_total', help: 'Breaker openings per route (from closed, or again from half_open)', labelNames: ['route'], registers: [this.registry] });
  readonly #probeResults = new Counter({ name: 'warden_canary_probe_results_total', help: 'Canary probe results by probe and verdict (invalidated: voided by a positive control)', labelNames: ['probe', 'verdict'], registers: [this.registry] });
  readonly #quarantines = new Counter({ name: 'warden_quarantines_total', help: 'Canary quarantines by the first failing probe of the deciding round (probe:reason)', labelNames: ['reason'], registers: [this.registry] });
  // Derived when scraped, so requests pay nothing for it.
  readonly #degradedShare = new Gauge({ name: 'warden_degraded_share', help: 'Share of a role\'s requests since start answered by its degrade message or default', labelNames: ['role'], registers: [this.registry], collect: () => this.#collectDegradedShare() });

  /** A route id as its label: kept to a bounded set (the catalog's routeLabel); as it is by default. */
  readonly #route: (route: string) => string;

  constructor(options: { processMetrics?: boolean; routeLabel?: (route: string) => string } = {}) {
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'warden_' });
    this.#route = options.routeLabel ?? ((route) => route);
  }

  recordRequest(role: string, route: string, outcome: Outcome, seconds: number): void {
    const label = this.#route(route);
    this.#requests.inc([role, label, outcome]);
    this.#duration.labels(role, label).observe(seconds);
  }

  recordFirstToken(role: string, route: string, seconds: number): void {
    this.#firstToken.labels(role, this.#route(route)).observe(seconds);
  }

  recordRejected(code: string): void {
    this.#rejected.labels(code).inc();
  }

  recordRoleResult(role: string, result: RoleResult): void {
    this.#roleResults.inc([role, result]);
  }

  recordAttempt(route: string, errorClass: ErrorClass): void {
    this.#attempts.inc([this.#route(route), errorClass]);
  }

  /** Once per role request, with the model its first attempt went to (warden_fallbacks_total's `from_model` counts against it). */
  recordFirstAttempt(role: string, model: string): void {
    this.#firstAttempts.inc([role, model]);
  }

  /** `reason` as the fallback ledger writes it (`transport:upstream_status_503`); `toModel` is `none` when no model answered. */
  recordFallback(role: string, reason: string, fromModel: string, toModel: string): void {
    this.#fallbacks.inc([role, reason, fromModel, toModel]);
  }

  recordStrictUnavailable(role: string): void {
    this.#strictUnavailable.inc([role]);
  }

  recordProbeResult(probe: string, verdict: string): void {
    this.#probeResults.labels(probe, verdict).inc();
  }

  recordQuarantine(reason: string): void {
    this.#quarantines.labels(reason).inc();
  }

  recordBreakerTransition(breakerRoute: string, to: string, openMs: number | null, firstTry: boolean | null): void {
    const route = this.#route(breakerRoute);
    this.#breakerTransitions.labels(route, to).inc();
    this.#breakerState.labels(route).set(BREAKER_STATE_VALUE[to] ?? 0);
    if (to === 'open') this.#breakerOpenings.labels(route).inc();
    if (openMs !== null) this.#breakerOpenSeconds.labels(route).inc(openMs / 1000);
    if (firstTry !== null) this.#recoveries.labels(route, String(firstTry)).inc();
  }

  /** The state gauge alone: a state another instance decided and this one adopted (that instance counted the transition). */
  setBreakerState(route: string, state: string): void {
    this.#breakerState.labels(this.#route(route)).set(BREAKER_STATE_VALUE[state] ?? 0);
  }

  recordEscalation(role: string, signal: string): void {
    this.#escalations.labels(role, signal).inc();
  }

  recordQualityFailure(role: string, route: string, check: string, reason: string): void {
    this.#qualityFailures.labels(role, this.#route(route), check, reason).inc();
  }

  recordUsage(role: string, model: string, promptTokens: number, completionTokens: number, usd: number | null): void {
    if (promptTokens > 0) this.#tokens.inc([role, model, 'prompt'], promptTokens);
    if (completionTokens > 0) this.#tokens.inc([role, model, 'completion'], completionTokens);
    if (usd !== null && usd > 0) this.#cost.inc([role, model], usd);
  }

  /** An answer that went out without usage from its upstream: what the token and cost counters miss. */
  recordAnswerWithoutUsage(role: string, route: string): void {
    this.#withoutUsage.inc([role, this.#route(route)]);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  #collectDegradedShare(): void {
    const byRole = new Map<string, { degraded: number; all: number }>();
    this.#roleResults.forEach(([role, result], total) => {
      let sums = byRole.get(role!);
      if (!sums) byRole.set(role!, (sums = { degraded: 0, all: 0 }));
      sums.all += total;
      if (DEGRADED.has(result!)) sums.degraded += total;
    });
    for (const [role, { degraded, all }] of byRole) this.#degradedShare.labels(role).set(all === 0 ? 0 : degraded / all);
  }
}
