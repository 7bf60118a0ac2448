// POST /v1/chat/completions: parse once, resolve the plan, decide escalation, and hand the
// request to its execution.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { receiveBody } from '../protocol/body.js';
import { GatewayError, modelNotFound } from '../protocol/errors.js';
import { lastUserText } from '../protocol/messages.js';
import type { ChatRequest } from '../protocol/types.js';
import { dominantLanguageOf } from '../quality/index.js';
import { decideEscalation, pinExcludedByClient, readSignals, restrictsEndpoints, type Router } from '../routing/index.js';
import { ChatExecution, type ExecutionDeps } from './execution.js';
import { parseChatRequest } from './request.js';

export interface ChatDeps extends ExecutionDeps {
  router: Router;
  bodyLimit: number;
}

const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

/** A reply is expected in the language the user wrote in, when the language check runs. */
function userLanguage(body: ChatRequest, checks: readonly string[] | undefined): string | null {
  if (!checks?.includes('language')) return null;
  const text = lastUserText(body.messages);
  return text ? (dominantLanguageOf(text) ?? null) : null;
}

/**
 * Reads the body and runs the request; every failure, thrown or rejected, goes to `onError`.
 * `onStart` hears of the execution before it runs (the shutdown's drain cuts it through it).
 */
export function handleChat(req: IncomingMessage, res: ServerResponse, requestId: string, startedAt: number, deps: ChatDeps, onError: (e: unknown) => void, onStart: (execution: ChatExecution) => void = () => {}): void {
  receiveBody(req, deps.bodyLimit, (error, raw) => {
    if (error) return onError(error);
    // Answered already while the body came in: the shutdown cut it.
    if (res.writableEnded || res.destroyed) return;
    let execution: ChatExecution;
    try {
      execution = prepare(req, res, requestId, startedAt, deps, raw!);
    } catch (e) {
      return onError(e);
    }
    onStart(execution);
    execution.run(onError);
  });
}

function prepare(req: IncomingMessage, res: ServerResponse, requestId: string, startedAt: number, deps: ChatDeps, raw: Buffer): ChatExecution {
  const body = parseChatRequest(raw);
  // A caller's key (a user, a conversation) keeps it on one arm of a role's rollout.
  const sticky = req.headers['x-warden-sticky'];
  const plan = deps.router.resolve(body.model, typeof sticky === 'string' ? sticky : undefined);
  if (!plan) throw modelNotFound(body.model);
  if (plan.pinnedEndpoint !== null && restrictsEndpoints(body.provider) && pinExcludedByClient(plan.candidates[0]!, plan.pinnedEndpoint, body.provider)) {
    throw new GatewayError(400, 'pinned_endpoint_excluded', 'invalid_request_error', `"${body.model}" pins an endpoint that your provider.only / provider.ignore / provider.order (allow_fallbacks false) excludes`, 'provider');
  }
  const role = plan.role;
  const header = req.headers['x-warden-language'];
  const language = typeof header === 'string' && LANGUAGE_TAG.test(header) ? header.slice(0, 2).toLowerCase() : (role?.config.language ?? userLanguage(body, role?.config.checks));
  let escalation = null;
  if (role?.config.escalation) {
    const difficulty = req.headers['x-warden-difficulty'];
    escalation = decideEscalation(readSignals(body, typeof difficulty === 'string' ? difficulty : undefined, role.config.escalation.keywords), role.config.escalation);
    if (escalation.escalate) {
      deps.metrics.recordEscalation(role.name, escalation.cause.split('=')[0]!);
      deps.log.info({ requestId, role: role.name, score: escalation.score, cause: escalation.cause, to: role.config.escalation.model }, 'escalated');
    }
  }
  return new ChatExecution(deps, { res, raw, requestId, startedAt, plan, body, stream: body.stream === true, language, escalation });
}
