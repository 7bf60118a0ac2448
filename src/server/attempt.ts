// One attempt: the shaped request goes to one model's upstream, and the answer is relayed
// to the client (buffered and checked for a plain completion, chunk by chunk for a stream).
import type { ServerResponse, OutgoingHttpHeaders } from 'node:http';
import type { CatalogModel } from '../catalog/index.js';
import type { Plan } from '../routing/index.js';
import type { GatewayMetrics, Logger, Outcome } from '../telemetry/index.js';
import { Exchange, UpstreamFailure, type PoolSet } from '../upstream/index.js';
import { JsonRelay } from './relay-json.js';
import { StreamRelay } from './relay-stream.js';

export interface AttemptContext {
  readonly res: ServerResponse;
  readonly requestId: string;
  readonly plan: Plan;
  readonly model: CatalogModel;
  /** performance.now() when the request arrived. */
  readonly startedAt: number;
  readonly metrics: GatewayMetrics;
  readonly log: Logger;
}

export interface AttemptDeps {
  pools: PoolSet;
  metrics: GatewayMetrics;
  log: Logger;
}

/** Headers every answer of this attempt carries, errors included. */
export function wardenHeaders(ctx: AttemptContext, routeId: string): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { 'x-request-id': ctx.requestId, 'x-warden-route': routeId, 'x-warden-attempts': '1' };
  if (ctx.plan.role) headers['x-warden-role'] = ctx.plan.role.name;
  return headers;
}

export function finishAttempt(ctx: AttemptContext, routeId: string, outcome: Outcome): void {
  ctx.metrics.recordRequest(ctx.plan.label, routeId, outcome, (performance.now() - ctx.startedAt) / 1000);
}

export function startAttempt(ctx: AttemptContext, payload: string, stream: boolean, pools: PoolSet): void {
  const { model } = ctx;
  const relay = stream ? new StreamRelay(ctx) : new JsonRelay(ctx);
  const exchange = new Exchange(
    {
      dispatcher: pools.get(model.upstream.origin, { connections: model.upstream.connections, connectTimeoutMs: model.timeouts.connect }),
      path: model.upstream.chatPath,
      headers: model.upstream.headers as Record<string, string>,
      body: payload,
      firstByteTimeoutMs: model.timeouts.firstByte,
      totalTimeoutMs: model.timeouts.total,
    },
    relay,
  );
  relay.attach(exchange);
  // A client that goes away must not keep an upstream generation (and its bill) running.
  ctx.res.once('close', () => {
    if (!exchange.finished) exchange.abort(new UpstreamFailure('aborted', 'client_disconnected', 'the client closed the connection'));
  });
}
