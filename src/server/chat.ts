// POST /v1/chat/completions: resolve the plan, shape the body for the chosen model's
// upstream, and start the attempt. The body is parsed once and serialised once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Blocklist } from '../health/index.js';
import { modelNotFound } from '../protocol/errors.js';
import type { Router } from '../routing/index.js';
import type { GatewayMetrics, Logger } from '../telemetry/index.js';
import type { PoolSet } from '../upstream/index.js';
import { startAttempt } from './attempt.js';
import { readBody } from '../protocol/body.js';
import { parseChatRequest } from './request.js';

export interface ChatDeps {
  router: Router;
  blocklist: Blocklist;
  pools: PoolSet;
  metrics: GatewayMetrics;
  log: Logger;
  bodyLimit: number;
}

export async function handleChat(req: IncomingMessage, res: ServerResponse, requestId: string, startedAt: number, deps: ChatDeps): Promise<void> {
  const body = parseChatRequest(await readBody(req, deps.bodyLimit));
  const plan = deps.router.resolve(body.model);
  if (!plan) throw modelNotFound(body.model);
  const model = plan.candidates[0]!;
  model.adapter.shapeBody(body, {
    upstreamModel: model.upstreamModel,
    pinnedEndpoint: plan.pinnedEndpoint,
    ignoredEndpoints: deps.blocklist.ignoredEndpoints(model),
  });
  startAttempt({ res, requestId, plan, model, startedAt, metrics: deps.metrics, log: deps.log }, JSON.stringify(body), body.stream === true, deps.pools);
}
