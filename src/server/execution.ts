// One chat request from plan to answer: attempts chosen by the planner, each classified
// (transport, rate_limited, client, config, quality), breakers fed by transport failures
// only, 429s waited out inside a budget, the quality gate on every answer, and — when the
// chain is spent — the role's tier deciding between a 503, a default and a degrade message.
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Clock } from '../clock/index.js';
import { internalError, roleUnavailable, type GatewayError } from '../protocol/errors.js';
import type { ChatRequest } from '../protocol/types.js';
import { classifyStatus, type BreakerBoard, type ConcurrencyQuota, type InFlight } from '../resilience/index.js';
import { AttemptPlanner, restrictsEndpoints, type AttemptChoice, type EscalationDecision, type FailedAttempt, type Plan, type RouteHealth } from '../routing/index.js';
import type { QualityGate } from '../routing/gate.js';
import type { Audit, GatewayMetrics, Logger, Outcome, RequestLog, SpanSource } from '../telemetry/index.js';
import { exchangeWith, quotaFull, stripReasoning, UpstreamFailure, type Exchange, type PoolSet } from '../upstream/index.js';
import { retryAfterSeconds, wardenHeaders } from './answer-headers.js';
import { AttemptFailures, fallbackHeader, servedRoute, type AttemptFailure } from './attempt-failures.js';
import { attemptPayload, wardenAsksUsage } from './attempt-payload.js';
import { AttemptSlot } from './attempt-slot.js';
import { errorClassOf, type AttemptResult } from './attempt-result.js';
import { JsonRelay } from './relay-json.js';
import { RateLimitWait } from './rate-limit-wait.js';
import { RequestRecord } from './request-record.js';
import { StreamRelay } from './relay-stream.js';
import { streamJudging, type StreamJudging } from './stream-judging.js';
import { endWithError, sendError, sendRaw } from './respond.js';
import { sendSyntheticAnswer } from './synthetic.js';
import { standInAnswer, unavailableMessage } from './tier.js';
import { answerForStatus, directModelError, outcomeForFailure } from './upstream-answer.js';

export interface ExecutionDeps {
  pools: PoolSet;
  health: RouteHealth;
  board: BreakerBoard;
  metrics: GatewayMetrics;
  audit: Audit;
  log: Logger;
  clock: Clock;
  inflight: InFlight;
  /** Per-provider concurrency quotas; null when no provider has one. */
  quota: ConcurrencyQuota | null;
  /** Trace spans, when an OTLP endpoint is configured; `spans` is null otherwise. */
  tracing: SpanSource;
  requestLog: RequestLog;
  gateFor(role: string): QualityGate | null;
}

export interface ExecutionRequest {
  res: ServerResponse;
  /** The client's body as received, reused when only the model name changes. */
  raw: Buffer;
  requestId: string;
  startedAt: number;
  plan: Plan;
  body: ChatRequest;
  stream: boolean;
  /** Expected reply language (x-warden-language, else the role's). */
  language: string | null;
  escalation: EscalationDecision | null;
}

const CLIENT_GONE = new UpstreamFailure('aborted', 'client_disconnected', 'the client closed the connection');
const SHUTTING_DOWN = new UpstreamFailure('aborted', 'gateway_shutting_down', 'Warden is shutting down');

export class ChatExecution {
  #exchange: Exchange | null = null;
  #clientGone = false;
  /** What the client gets when the shutdown's grace period ended before the answer did. */
  #stopping: GatewayError | null = null;
  readonly #failures = new AttemptFailures();
  /** Waiting out 429s within the role's budget, shared by all attempts; made on the first 429. */
  #wait: RateLimitWait | null = null;
  #onError: (e: unknown) => void = () => {};
  #planner: AttemptPlanner;
  #gate: QualityGate | null;
  /** What the gate asks of a stream; made on the first streamed attempt. */
  #judging: StreamJudging | null = null;
  #record: RequestRecord;

  constructor(
    private readonly d: ExecutionDeps,
    private readonly r: ExecutionRequest,
  ) {
    const role = r.plan.role;
    this.#gate = role ? d.gateFor(role.name) : null;
    this.#record = new RequestRecord(d, r.plan, r.requestId, r.startedAt, r.stream, this.#gate !== null);
    this.#planner = new AttemptPlanner(r.plan, d.health, {
      maxFallbacks: role && r.plan.pinnedEndpoint === null ? role.config.maxFallbacks : 0,
      tier: role?.config.tier ?? null,
      task: role ? (role.config.task ?? role.name) : null,
      language: r.language,
      escalate: r.escalation?.escalate ?? false,
      escalationThinking: role?.config.escalation?.thinking ?? 'auto',
      clientProvider: restrictsEndpoints(r.body.provider) ? r.body.provider : null,
    });
  }

  /**
   * Answers the request. Driven by callbacks, not an async loop: on the common path (one
   * attempt, no probe, no 429) the answer goes out in the same turn as the upstream's last
   * byte, with no promise or microtask per step. Anything thrown on the way goes to `onError`.
   */
  run(onError: (e: unknown) => void): void {
    this.#onError = onError;
    const { res } = this.r;
    res.on('close', () => {
      if (res.writableFinished) return;
      this.#clientGone = true;
      this.#exchange?.abort(CLIENT_GONE);
      this.#wait?.abort(CLIENT_GONE);
    });
    this.#next(null);
  }

  /**
   * The shutdown's grace period is over: the attempt in flight (or a 429 wait) is ended and the
   * client gets `error`, as an SSE error event when its stream is under way, else as a 503.
   */
  stop(error: GatewayError): void {
    if (this.#stopping || this.#clientGone) return;
    this.#stopping = error;
    this.#exchange?.abort(SHUTTING_DOWN);
    this.#wait?.abort(SHUTTING_DOWN);
  }

  /** The next attempt after `last` failed (null: the first), or the tier's answer when none is left. */
  #next(last: FailedAttempt | null): void {
    try {
      if (this.#stopping) return this.#stopped(last ? servedRoute(last.choice, last.servedEndpoint) : this.r.plan.candidates[0]!.directRouteId);
      const choice = this.#planner.next(last);
      if (!choice) return this.#exhausted();
      // A recovery probe (one request per route per cooldown) also needs the shared probe slot.
      if (choice.probe) {
        this.d.board.claimProbe(choice.routeId).then((claimed) => {
          if (claimed) return this.#start(choice);
          this.#planner.skip(choice);
          this.#next(last);
        }).catch(this.#onError);
        return;
      }
      this.#start(choice);
    } catch (e) {
      this.#onError(e);
    }
  }

  #start(choice: AttemptChoice): void {
    const role = this.r.plan.role;
    // Once per role request: the model it started on, the fallback rate's denominator.
    if (role && this.#planner.attempts === 1) this.d.metrics.recordFirstAttempt(role.name, choice.model.name);
    this.#attempt(choice);
  }

  /** One attempt's result: a 429 waited out and retried, else the answer or the next attempt. */
  #attempted(choice: AttemptChoice, result: AttemptResult, mayWait = true): void {
    try {
      if (mayWait && !this.#clientGone && result.kind === 'status' && result.status === 429 && this.#waitAndRetry(choice, result)) return;
      if (this.#clientGone) {
        this.#record.endAttempt(choice.routeId, 'aborted');
        this.#finish(choice.routeId, 'client_aborted');
        return;
      }
      // An answer that came in whole still goes out; anything else ends with the shutdown's error.
      if (this.#stopping && result.kind !== 'answer' && !(result.kind === 'streamed' && result.failure === null)) {
        this.#record.endAttempt(choice.routeId, 'aborted');
        return this.#stopped(servedRoute(choice, result.servedEndpoint));
      }
      const failed = this.#settle(choice, result);
      if (!failed) return;
      this.#record.endAttempt(servedRoute(choice, failed.servedEndpoint));
      this.#failures.add(failed);
      this.#next(failed);
    } catch (e) {
      this.#onError(e);
    }
  }

  /** Waits as the 429 asks and tries the same route again; false when the wait budget says no. */
  #waitAndRetry(choice: AttemptChoice, result: AttemptResult & { kind: 'status' }): boolean {
    this.#wait ??= new RateLimitWait(this.d.clock, this.r.plan.role?.config.retry ?? null);
    return this.#wait.start(
      result.headers,
      () => {
        this.#record.endAttempt(choice.routeId, 'rate_limited');
        this.#attempt(choice);
      },
      // The wait was cut short (the client left): the 429 stands as the result.
      () => this.#attempted(choice, result, false),
      this.#onError,
    );
  }

  /** Starts one attempt; its result goes to #attempted. */
  #attempt(choice: AttemptChoice): void {
    const { model } = choice;
    this.#record.attemptStarted(this.#planner.attempts, choice.routeId, model.name, choice.why, this.#failures.last);
    const quota = this.d.quota;
    const provider = model.upstream.providerName;
    // A provider at its quota is passed over like a shed route: not its fault, so no breaker
    // failure, and the next route is tried.
    if (quota !== null && !quota.take(provider)) return this.#attempted(choice, { kind: 'failure', failure: quotaFull(provider), servedEndpoint: null });
    const asksUsage = wardenAsksUsage(this.r.body, model);
    const payload = attemptPayload(this.r.raw, this.r.body, choice, asksUsage);
    const slot = new AttemptSlot(this.d.inflight, quota, provider, choice.routeId, (failure) => this.#exchange?.abort(failure));
    // undici reports some failures (a closed pool) from inside dispatch(): the result must
    // wait until this attempt's exchange is in place, or a next attempt's would be overwritten.
    let started = false;
    const resolve = (result: AttemptResult) => {
      slot.release();
      if (started) this.#attempted(choice, result);
      else queueMicrotask(() => this.#attempted(choice, result));
    };
    const sink = this.r.stream ? this.#streamRelay(choice, asksUsage, resolve, slot) : new JsonRelay(model, this.#gate !== null || choice.thinking === 'off', resolve);
    this.#exchange = exchangeWith(model, this.d.pools, payload, sink, this.r.stream);
    if (sink instanceof StreamRelay) sink.attach(this.#exchange);
    if (this.#clientGone) this.#exchange.abort(CLIENT_GONE);
    else if (this.#stopping) this.#exchange.abort(SHUTTING_DOWN);
    started = true;
  }

  #streamRelay(choice: AttemptChoice, dropUsage: boolean, resolve: (r: AttemptResult) => void, slot: AttemptSlot): StreamRelay {
    this.#judging ??= streamJudging(this.#gate, this.r.plan.role?.config.holdBack ?? null, this.r.language, this.r.body);
    return new StreamRelay(
      this.r.res,
      choice.model,
      {
        judging: this.#judging,
        stripReasoning: choice.thinking === 'off',
        headers: (served) => this.#headers(servedRoute(choice, served)),
        routeId: (served) => servedRoute(choice, served),
        dropUsage,
        onFirstToken: (served) => {
          const route = servedRoute(choice, served);
          slot.servedBy(route);
          this.d.metrics.recordFirstToken(this.r.plan.label, route, this.#record.elapsed() / 1000);
        },
      },
      resolve,
    );
  }

  /** Handles one attempt's result; returns the failure to fall back from, or null when answered. */
  #settle(choice: AttemptChoice, result: AttemptResult): AttemptFailure | null {
    const served = result.servedEndpoint;
    const route = servedRoute(choice, served);
    const probe = route === choice.routeId && choice.probe;
    this.#record.attemptSettled(errorClassOf(result));
    const failure = result.kind === 'failure' || result.kind === 'streamed' ? result.failure : null;
    if (failure?.kind === 'internal') return this.#failedHere(route, failure);
    switch (result.kind) {
      case 'status': {
        const outcome = classifyStatus(result.status);
        if (outcome === 'client' || (outcome === 'rate_limited' && this.r.plan.role === null)) {
          const relayed = this.#passThrough(result, route);
          if (this.r.plan.role) this.d.metrics.recordRoleResult(this.r.plan.label, 'client_error');
          return this.#finish(route, relayed);
        }
        if (outcome === 'config') {
          this.d.audit.record('config_fault', route, { status: result.status, detail: 'the upstream refused Warden\u2019s credentials; check the provider apiKey' }, 'error');
          return { choice, outcome: 'config', reason: `upstream_status_${result.status}`, servedEndpoint: null, status: result };
        }
        if (outcome === 'transport') this.d.board.failure(route, probe, `upstream answered ${result.status}`);
        return { choice, outcome: outcome === 'rate_limited' ? 'rate_limited' : 'transport', reason: `upstream_status_${result.status}`, servedEndpoint: null, status: result };
      }
      case 'failure': {
        // Shed (the provider at its quota, the route drained) is Warden's own doing: labelled
        // as such in the fallback header, ledger and metrics, and kept from the breaker.
        const shed = result.failure.kind === 'shed';
        if (!shed) this.d.board.failure(route, probe, result.failure.code);
        return { choice, outcome: shed ? 'shed' : 'transport', reason: result.failure.code, servedEndpoint: served, failure: result.failure };
      }
      case 'answer': {
        this.d.board.success(route, probe);
        let body = result.body;
        const completion = result.completion;
        if (completion) {
          if (choice.thinking === 'off' && stripReasoning(completion)) body = Buffer.from(JSON.stringify(completion));
          const verdict = this.#gate?.judgeChoices(completion.choices, this.r.language);
          if (verdict && !verdict.passed) return this.#qualityFailure(choice, route, served, verdict.failed!, verdict.choice);
        }
        this.#record.usage(choice.model, result.usage);
        sendRaw(this.r.res, 200, body, this.#headers(route, 'application/json'));
        return this.#answered(choice, route);
      }
      case 'rejected':
        this.d.board.success(route, probe);
        return this.#qualityFailure(choice, route, served, result.gate.failed!, result.gate.choice);
      case 'streamed': {
        const failure = result.failure;
        // The upstream's own error event mid-stream is the provider failing under way: a
        // breaker failure like a cut stream, though the relay ended the stream cleanly.
        if (failure === null && result.sawUpstreamError) this.d.board.failure(route, probe, 'upstream_error_event');
        else if (failure === null) this.d.board.success(route, probe);
        else if (failure.kind !== 'aborted' && failure.kind !== 'shed') this.d.board.failure(route, probe, failure.code);
        // Already sent: a failure here can only be recorded, never switched silently.
        const verdict = result.verdict;
        if (verdict?.failed) this.#record.qualityFailed(route, verdict.failed.check, verdict.failed.reason);
        this.#record.usage(choice.model, result.usage);
        if (failure !== null || result.sawUpstreamError) {
          this.#ledger(route, 'failed_after_commit', choice.model.name);
          if (this.r.plan.role) this.d.metrics.recordRoleResult(this.r.plan.label, 'failed');
          return this.#finish(route, failure !== null && outcomeForFailure(failure) === 'timeout' ? 'timeout' : 'stream_error');
        }
        return this.#answered(choice, route);
      }
    }
  }

  #qualityFailure(choice: AttemptChoice, route: string, served: string | null, failed: { check: string; reason: string }, failedChoice?: number): AttemptFailure {
    this.#record.qualityFailed(route, failed.check, failed.reason);
    return { choice, outcome: 'quality', reason: failed.reason, servedEndpoint: served, failedChoice };
  }

  #answered(choice: AttemptChoice, route: string, outcome: Outcome = 'ok'): null {
    if (this.r.plan.role) this.d.metrics.recordRoleResult(this.r.plan.label, this.#failures.count === 0 ? 'primary' : 'fallback');
    if (this.#failures.count > 0 || this.r.escalation?.escalate) this.#ledger(route, this.#failures.count > 0 ? 'fallback' : 'escalated', choice.model.name);
    return this.#finish(route, outcome);
  }

  /** Nothing could answer within the budget: the tier decides. */
  #exhausted(): void {
    const role = this.r.plan.role;
    const last = this.#failures.last;
    const route = last ? servedRoute(last.choice, last.servedEndpoint) : this.r.plan.candidates[0]!.routeIdFor(this.r.plan.pinnedEndpoint);
    if (!role) {
      // A model named directly has no tier: the client gets the upstream's own failure.
      if (last?.status && last.outcome !== 'config') return void this.#finish(route, this.#passThrough(last.status, route));
      const { error, outcome } = directModelError(last, route, () => this.#retryAfterSeconds());
      sendError(this.r.res, error, this.#headers(route));
      return void this.#finish(route, outcome);
    }
    const why = this.#failures.explain();
    const standIn = standInAnswer(role.config);
    if (standIn) {
      // No route made this answer: x-warden-route names none (x-warden-fallback still says what failed).
      const headers = this.#headers(null);
      headers[standIn.header] = 'true';
      sendSyntheticAnswer(this.r.res, standIn.content, role.name, this.r.stream, this.r.requestId, headers);
      this.d.metrics.recordRoleResult(role.name, standIn.result);
      this.#ledger(null, standIn.result);
      return void this.#finish(route, 'upstream_error');
    }
    sendError(this.r.res, roleUnavailable(unavailableMessage(role.name, role.config, this.#planner.attempts, why), this.#retryAfterSeconds()), this.#headers(route));
    this.d.metrics.recordRoleResult(role.name, 'unavailable');
    if (role.config.tier === 'strict') this.d.metrics.recordStrictUnavailable(role.name);
    this.#ledger(null, 'unavailable');
    this.d.log.warn({ requestId: this.r.requestId, role: role.name, tier: role.config.tier, why }, 'role unavailable');
    this.#finish(route, 'upstream_error');
  }

  /** Answers with the shutdown's error; a stream under way gets it as its last event. */
  #stopped(route: string): void {
    endWithError(this.r.res, this.#stopping!, this.r.stream, this.#headers(route));
    this.#finish(route, 'shutting_down');
  }

  /**
   * Warden failed while answering (writing to the client, or its own code threw): not the
   * route's doing, so neither its breaker nor its health hears of it, and no other route is
   * tried — it would fail the same way. The client gets a 500, or an SSE error event on a
   * stream under way; the answer's headers stay out (they may be what failed).
   */
  #failedHere(route: string, failure: UpstreamFailure): null {
    this.d.log.error({ requestId: this.r.requestId, route, reason: failure.message, err: failure.cause }, 'Warden failed while answering; the route is not blamed');
    endWithError(this.r.res, internalError(), this.r.stream, { 'x-request-id': this.r.requestId });
    if (this.r.plan.role) this.d.metrics.recordRoleResult(this.r.plan.label, 'failed');
    return this.#finish(route, 'internal_error');
  }

  /** Relays an upstream's own error answer (status, body, its safe headers) with Warden's headers. */
  #passThrough(status: { status: number; headers: IncomingHttpHeaders; body: Buffer }, route: string): Outcome {
    const answer = answerForStatus(status.status, status.headers, status.body, route);
    sendRaw(this.r.res, answer.status, answer.body, { ...answer.headers, ...this.#headers(route) });
    return answer.outcome;
  }

  #headers(route: string | null, contentType?: string): OutgoingHttpHeaders {
    const first = this.#failures.first;
    const { requestId, plan, escalation } = this.r;
    const escalated = escalation?.escalate ? `score=${escalation.score}; cause=${escalation.cause}; to=${plan.escalationModel?.name}` : null;
    return wardenHeaders({ requestId, route, attempts: this.#planner.attempts, role: plan.role?.name ?? null, fallback: first ? fallbackHeader(first) : null, escalation: escalated }, contentType);
  }

  #retryAfterSeconds(): number {
    return retryAfterSeconds(this.#planner.earliestRetryAt, this.#failures.statuses(), this.d.clock.now());
  }

  /** `toModel`: the model whose answer went out, null when the tier answered. */
  #ledger(finalRoute: string | null, outcome: string, toModel: string | null = null): void {
    this.#record.ledger(this.#failures.first, this.r.escalation?.escalate ? this.r.escalation.cause : null, finalRoute, outcome, this.#planner.attempts, toModel);
  }

  /** The request's end, once. */
  #finish(route: string, outcome: Outcome): null {
    this.#record.finish(this.r.res, route, outcome, this.#failures.count, this.#planner.attempts);
    return null;
  }
}
