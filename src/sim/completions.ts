// POST chat/completions, both as a single provider and as the OpenRouter-style aggregator:
// validate, pick the provider (with fallback), roll its fault, compose the reply, deliver.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatRequest } from '../protocol/types.js';
import { deliver } from './delivery.js';
import { choiceFault, forcedFor, isPreResponseFault, parseForcedFaults, type FaultName, type ForcedFaults } from './faults.js';
import { candidatesFor, type PriceBalancer, type RoutingNames } from './openrouter.js';
import type { SimProvider } from './provider.js';
import type { ReplyCache } from './reply-cache.js';
import type { StatsBook } from './stats.js';
import { readJson, sendError } from './http.js';
import type { Reply } from './reply.js';
import { choiceCount, promptTokensOf, replyInput, validateChatRequest } from './request.js';
import { usageOf } from './wire.js';

export interface FleetContext {
  seed: number;
  /** In scenario order. */
  providers: readonly SimProvider[];
  book: StatsBook;
  replies: ReplyCache;
  /** Present when the scenario balances by price; absent means scenario order. */
  balancer: PriceBalancer | null;
  routingNames: RoutingNames;
  created: number;
  nextId(): string;
}

/** What the request log records about a request, filled in as handling goes on. */
export interface Trace {
  model: string;
  served: string | null;
  stream: boolean;
  providerPrefs: unknown;
  body: unknown;
  fault: FaultName | null;
  tried: string[];
  unmatchedProviders: string[];
}

/** `direct` is a provider's own endpoint; absent means the OpenRouter-style aggregator. */
export async function handleCompletion(
  ctx: FleetContext,
  req: IncomingMessage,
  res: ServerResponse,
  trace: Trace,
  direct?: SimProvider,
): Promise<void> {
  if (direct && !direct.authorizes(req.headers)) {
    return sendError(res, 401, 'Incorrect API key provided.', 'authentication_error', 'invalid_api_key');
  }
  const parsed = await readJson(req, res);
  if (!parsed) return;
  const body = parsed.value;
  const checked = validateChatRequest(body);
  if (!checked.ok) return sendError(res, 400, checked.problem, 'invalid_request_error', 'invalid_request', checked.param);
  const { request } = checked;
  trace.model = request.model;
  trace.stream = request.stream === true;
  trace.providerPrefs = request.provider ?? null;
  trace.body = request;

  const header = req.headers['x-sim-fault'];
  const forced = typeof header === 'string' ? parseForcedFaults(header) : undefined;
  if (typeof forced === 'string') return sendError(res, 400, forced, 'invalid_request_error', 'invalid_sim_fault');

  let candidates: readonly SimProvider[];
  let allowFallbacks = false;
  if (direct) {
    if (!direct.serves(request.model)) return modelNotFound(res, request.model);
    candidates = [direct];
  } else {
    const serving = ctx.providers.filter((p) => p.serves(request.model));
    if (serving.length === 0) return modelNotFound(res, request.model);
    const routing = candidatesFor(serving.map((p) => p.identity), request.provider, ctx.routingNames);
    trace.unmatchedProviders = routing.unmatched;
    if (routing.names.length === 0) {
      return sendError(res, 404, 'No allowed providers are available for the selected model.', 'not_found_error', 'no_allowed_providers');
    }
    candidates = routing.names.map((name) => serving.find((p) => p.name === name) as SimProvider);
    if (ctx.balancer) candidates = ctx.balancer.front(candidates, request.provider);
    allowFallbacks = routing.allowFallbacks;
  }
  serve(ctx, res, trace, request, candidates, allowFallbacks, forced, direct === undefined, req.headers.authorization ?? null);
}

function serve(
  ctx: FleetContext,
  res: ServerResponse,
  trace: Trace,
  request: ChatRequest,
  candidates: readonly SimProvider[],
  allowFallbacks: boolean,
  forced: ForcedFaults | undefined,
  aggregated: boolean,
  authorization: string | null,
): void {
  for (let i = 0; i < candidates.length; i++) {
    const provider = candidates[i] as SimProvider;
    const rolled = provider.roll();
    const pinned = forcedFor(forced, provider.name);
    const fault = pinned !== undefined ? pinned : rolled;
    if (isPreResponseFault(fault) && allowFallbacks && i < candidates.length - 1) {
      ctx.book.attempted(provider.name, fault);
      trace.tried.push(provider.name);
      continue;
    }
    const replies = composeChoices(ctx, provider, request, fault);
    const reply = replies[0] as Reply;
    const shown = shownFault(fault, replies);
    ctx.book.attempted(provider.name, shown);
    trace.served = provider.name;
    trace.fault = shown;
    const usage = provider.spec.usage === 'none' ? null : usageOf(promptTokensOf(request.messages), replies);
    deliver({
      res,
      provider: provider.spec,
      fault: reply.fault,
      reply,
      moreChoices: replies.length === 1 ? NO_MORE_CHOICES : replies.slice(1),
      envelope: { id: ctx.nextId(), created: ctx.created, model: request.model, provider: aggregated ? provider.name : undefined },
      usage,
      stream: trace.stream,
      includeUsage: request.stream_options?.include_usage === true && usage !== null,
      processingComments: aggregated && provider.spec.processingComments,
      credentials: provider.spec.quoteCredentials ? authorization : null,
      hold: provider.spec.holdStreams ? (resume) => provider.hold(resume) : null,
      onStreamOpen: () => {
        ctx.book.streamOpened(provider.name);
        res.once('close', () => ctx.book.streamClosed(provider.name));
      },
    });
    return;
  }
}

const NO_MORE_CHOICES: readonly Reply[] = [];

/**
 * The reply of each of the request's `n` choices. The first is the reply a one-choice request
 * gets; the others are composed as if asked under their own key, so they differ from it.
 */
function composeChoices(ctx: FleetContext, provider: SimProvider, request: ChatRequest, fault: FaultName | null): Reply[] {
  // Many providers answer one choice whatever `n` asks (OpenRouter passes `n` on; few honour it).
  const count = provider.spec.ignoresN ? 1 : choiceCount(request);
  const input = replyInput(ctx.seed, provider, request, choiceFault(fault, 0, count));
  const replies = [ctx.replies.get(input)];
  for (let i = 1; i < count; i++) replies.push(ctx.replies.get({ ...input, key: `${input.key}#choice${i}`, fault: choiceFault(fault, i, count) }));
  return replies;
}

/** The fault as the stats and the request log show it: the drawn one, when some choice carries it. */
function shownFault(fault: FaultName | null, replies: readonly Reply[]): FaultName | null {
  if (fault !== 'lastChoicePrefix') return (replies[0] as Reply).fault;
  return (replies.at(-1) as Reply).fault === 'prefix' ? fault : null;
}

function modelNotFound(res: ServerResponse, model: string): void {
  sendError(res, 404, `The model \`${model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found', 'model');
}
