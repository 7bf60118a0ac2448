// What one chat request leaves behind besides its answer: attempts counted by error class, its
// trace spans, the rollout arm's figures, its fallback-ledger line, the request metric and its
// log line. Kept apart from
// the execution so that deciding (execution.ts) and recording (here) can be read on their own.
import type { ServerResponse } from 'node:http';
import type { CatalogModel } from '../catalog/index.js';
import type { Usage } from '../protocol/types.js';
import type { Plan } from '../routing/index.js';
import type { Audit, ErrorClass, GatewayMetrics, Outcome, RequestLog, Span, SpanSource, Spans } from '../telemetry/index.js';

/** The first failed attempt of a request that fell back. */
export interface FirstFailure {
  /** `outcome:reason`: a stable code, which the metrics and the ledger key on. */
  reason: string;
  route: string;
  model: string;
  /** The choice that failed the gate, when an answer (streamed or not) had several; x-warden-fallback names it. */
  failedChoice?: number;
}

export interface RecordDeps {
  metrics: GatewayMetrics;
  audit: Audit;
  tracing: SpanSource;
  requestLog: RequestLog;
}

export class RequestRecord {
  readonly #spans: Spans | null;
  /** The request's span and its open attempt's; null without tracing. */
  readonly #span: Span | null;
  #attemptSpan: Span | null = null;
  /** How the open attempt ended, as far as known; null when no attempt is open. */
  #attemptClass: ErrorClass | null = null;
  /** For a rollout arm's figures (plan.observer): what the request cost, answers the gate failed. */
  #costUsd = 0;
  #qualityFailures = 0;
  /** Whether the last attempt that reached usage() had any: the answer's, when the request ends `ok`. */
  #usageRead = false;

  constructor(
    private readonly d: RecordDeps,
    private readonly plan: Plan,
    private readonly requestId: string,
    private readonly startedAt: number,
    stream: boolean,
    /** Whether the role judges answers (an attempt span says so). */
    private readonly gated: boolean,
  ) {
    this.#spans = d.tracing.spans;
    this.#span = this.#spans?.request(plan.label, requestId, startedAt, stream) ?? null;
  }

  /** Milliseconds since the request arrived. */
  elapsed(): number {
    return performance.now() - this.startedAt;
  }

  /** `lastFailure`: why the previous attempt was left; its text is built only for a span. */
  attemptStarted(attempt: number, routeId: string, model: string, why: string, lastFailure: { outcome: string; reason: string } | undefined): void {
    this.#attemptClass = 'none';
    if (this.#spans) this.#attemptSpan = this.#spans.attempt(this.#span!, attempt, routeId, model, why, lastFailure ? `${lastFailure.outcome}:${lastFailure.reason}` : null);
  }

  /** What #settle found of the open attempt; a quality failure recorded later overrides it. */
  attemptSettled(errorClass: ErrorClass): void {
    this.#attemptClass = errorClass;
  }

  /** Counts the open attempt, once, and ends its span; `errorClass` overrides what was found. */
  endAttempt(route: string, errorClass: ErrorClass | null = this.#attemptClass): void {
    if (this.#attemptClass === null || errorClass === null) return;
    this.#attemptClass = null;
    this.d.metrics.recordAttempt(route, errorClass);
    if (!this.#attemptSpan) return;
    this.#spans!.endAttempt(this.#attemptSpan, route, errorClass, this.gated);
    this.#attemptSpan = null;
  }

  qualityFailed(route: string, check: string, reason: string): void {
    this.d.metrics.recordQualityFailure(this.plan.label, route, check, reason);
    this.#qualityFailures++;
    this.#attemptClass = 'quality';
    if (this.#attemptSpan) this.#spans!.qualityFailed(this.#attemptSpan, check, reason);
  }

  usage(model: CatalogModel, usage: Usage | null): void {
    this.#usageRead = usage !== null;
    if (!usage) return;
    const price = model.config.profile?.price;
    const usd = price ? (usage.prompt_tokens * price.input + usage.completion_tokens * price.output) / 1e6 : null;
    this.d.metrics.recordUsage(this.plan.label, model.name, usage.prompt_tokens ?? 0, usage.completion_tokens ?? 0, usd);
    if (usd !== null) this.#costUsd += usd;
  }

  /**
   * A role request's line in the fallback ledger (a fallback, an escalation, a stand-in answer,
   * a 503): `finalRoute` and `toModel` are null when the tier answered. Not for models named directly.
   */
  ledger(first: FirstFailure | null, escalationCause: string | null, finalRoute: string | null, outcome: string, attempts: number, toModel: string | null): void {
    const role = this.plan.role;
    if (!role) return;
    const reason = first ? first.reason : escalationCause !== null ? `escalation:${escalationCause}` : 'none';
    if (first) this.d.metrics.recordFallback(role.name, reason, first.model, toModel ?? 'none');
    this.d.audit.ledger({
      requestId: this.requestId,
      role: role.name,
      primaryRoute: first ? first.route : (finalRoute ?? this.plan.candidates[0]!.directRouteId),
      reason,
      finalRoute,
      outcome,
      attempts,
      latencyMs: Math.round(this.elapsed()),
    });
  }

  /** The request's end, once: metrics, the rollout arm's figures, its log line and its span. */
  finish(res: ServerResponse, route: string, outcome: Outcome, failures: number, attempts: number): void {
    this.endAttempt(route);
    const ms = this.elapsed();
    this.d.metrics.recordRequest(this.plan.label, route, outcome, ms / 1000);
    if (outcome === 'ok' && !this.#usageRead) this.d.metrics.recordAnswerWithoutUsage(this.plan.label, route);
    this.plan.observer?.ended({ outcome, failures, qualityFailures: this.#qualityFailures, latencyMs: ms, costUsd: this.#costUsd });
    const status = res.headersSent ? res.statusCode : 499;
    this.d.requestLog.write({ requestId: this.requestId, role: this.plan.label, route, attempts, outcome, status, latencyMs: Math.round(ms) });
    if (this.#span) this.#spans!.endRequest(this.#span, route, outcome, status, attempts);
  }
}
