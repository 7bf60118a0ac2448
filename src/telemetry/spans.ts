// Warden's spans and their attributes, in one place: a trace per chat request (`chat <role>`)
// with a child per upstream attempt, and a trace per canary round with a child per probe.
// The API package is no extra cost (prom-client loads it anyway); the SDK is (tracing.ts).
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { ErrorClass } from './metrics.js';

export type { Span };

const childOf = (span: Span) => trace.setSpan(ROOT_CONTEXT, span);

export class Spans {
  constructor(private readonly tracer: Tracer) {}

  /** Starts when the request arrived (`startedAt` is a performance.now() reading). */
  request(label: string, requestId: string, startedAt: number, stream: boolean): Span {
    return this.tracer.startSpan(`chat ${label}`, {
      kind: SpanKind.SERVER,
      startTime: performance.timeOrigin + startedAt,
      attributes: { 'warden.role': label, 'warden.request_id': requestId, 'warden.stream': stream },
    });
  }

  endRequest(span: Span, route: string, outcome: string, status: number, attempts: number): void {
    span.setAttributes({ 'warden.route': route, 'warden.outcome': outcome, 'warden.attempts': attempts, 'http.response.status_code': status });
    if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
    span.end();
  }

  /** `fallbackReason`: why the request left the previous attempt (`quality:wrong_language`), null on the first. */
  attempt(parent: Span, n: number, route: string, model: string, why: string, fallbackReason: string | null): Span {
    const attributes: Attributes = { 'warden.attempt': n, 'warden.route': route, 'warden.model': model, 'warden.why': why };
    if (fallbackReason !== null) attributes['warden.fallback_reason'] = fallbackReason;
    return this.tracer.startSpan('upstream attempt', { kind: SpanKind.CLIENT, attributes }, childOf(parent));
  }

  qualityFailed(span: Span, check: string, reason: string): void {
    span.setAttributes({ 'warden.quality.verdict': 'fail', 'warden.quality.check': check, 'warden.quality.reason': reason });
  }

  /** `gated`: the role's quality gate judged this answer (a pass is worth recording too). */
  endAttempt(span: Span, route: string, errorClass: ErrorClass, gated: boolean): void {
    span.setAttribute('warden.route', route);
    span.setAttribute('warden.error_class', errorClass);
    if (errorClass === 'none') {
      if (gated) span.setAttribute('warden.quality.verdict', 'pass');
    } else {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorClass });
    }
    span.end();
  }

  round(only: string | undefined): Span {
    return this.tracer.startSpan('canary round', only === undefined ? {} : { attributes: { 'warden.route': only } });
  }

  endRound(span: Span, routes: number, failed: number): void {
    span.setAttributes({ 'warden.canary.routes': routes, 'warden.canary.failed_routes': failed });
    span.end();
  }

  probe(round: Span, route: string, probe: string, language: string | null): Span {
    const attributes: Attributes = { 'warden.route': route, 'warden.probe': probe };
    if (language !== null) attributes['warden.probe.language'] = language;
    return this.tracer.startSpan(`canary probe ${probe}`, { kind: SpanKind.CLIENT, attributes }, childOf(round));
  }

  endProbe(span: Span, verdict: string, reason: string, firstTokenMs: number | null | undefined): void {
    span.setAttributes({ 'warden.verdict': verdict, 'warden.reason': reason });
    if (typeof firstTokenMs === 'number') span.setAttribute('warden.first_token_ms', firstTokenMs);
    if (verdict === 'fail' || verdict === 'transport') span.setStatus({ code: SpanStatusCode.ERROR, message: `${verdict}: ${reason}` });
    span.end();
  }
}
