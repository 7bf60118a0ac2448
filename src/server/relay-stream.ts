// Relays a streamed completion. Until the first token the stream is read event by event and
// held back: the served endpoint is learnt, garbage or an early error is still answered with
// a proper HTTP error, and the first-token timeout can still act. From the first token on,
// upstream bytes go to the client as they arrive, with backpressure, and are not parsed.
import type { IncomingHttpHeaders } from 'node:http';
import { SseReader, sseData } from '../protocol/sse.js';
import type { ChatCompletionChunk } from '../protocol/types.js';
import { GatewayError } from '../protocol/errors.js';
import { invalidResponse, timeoutFailure, type Exchange, type ExchangeSink, type UpstreamFailure } from '../upstream/index.js';
import { finishAttempt, wardenHeaders, type AttemptContext } from './attempt.js';
import { describe } from './relay-json.js';
import { sendError, sendRaw } from './respond.js';
import { answerForStatus, errorForFailure, outcomeForFailure } from './upstream-answer.js';

const DONE_MARK = Buffer.from('[DONE]');
const ERROR_FINISH = Buffer.from('"finish_reason":"error"');
const TAIL_BYTES = 16;

export class StreamRelay implements ExchangeSink {
  #exchange: Exchange | null = null;
  #status = 0;
  #headers: IncomingHttpHeaders = {};
  #held: Buffer[] = [];
  #reader: SseReader | null = new SseReader();
  #committed = false;
  #served: string | null = null;
  #firstTokenTimer: NodeJS.Timeout | null = null;
  #tail: Buffer = Buffer.alloc(0);
  #sawErrorFinish = false;
  #onDrain = () => this.#exchange?.resume();

  constructor(private readonly ctx: AttemptContext) {}

  attach(exchange: Exchange): void {
    this.#exchange = exchange;
    const ms = this.ctx.model.timeouts.firstToken;
    this.#firstTokenTimer = setTimeout(() => exchange.abort(timeoutFailure('first_token', ms)), ms);
  }

  onResponse(status: number, headers: IncomingHttpHeaders): void {
    this.#status = status;
    this.#headers = headers;
    if (status !== 200) this.#clearFirstTokenTimer();
  }

  onData(chunk: Buffer): void {
    if (this.#status !== 200) {
      this.#held.push(chunk);
      return;
    }
    if (this.#committed) {
      this.#forward(chunk);
      return;
    }
    this.#held.push(chunk);
    for (const event of this.#reader!.push(chunk)) {
      if (event.data === null) continue;
      if (event.data === '[DONE]') return this.#commit();
      let parsed: ChatCompletionChunk;
      try {
        parsed = JSON.parse(event.data) as ChatCompletionChunk;
      } catch {
        return this.#exchange!.abort(invalidResponse(`upstream stream sent an event that is not JSON: ${JSON.stringify(event.data.slice(0, 60))}`));
      }
      this.#served ??= this.ctx.model.adapter.servedEndpoint(parsed);
      if (parsed.error) return this.#exchange!.abort(invalidResponse(`upstream stream failed before the first token: ${errorMessage(parsed.error)}`));
      if (startsAnswer(parsed)) return this.#commit();
    }
  }

  onEnd(): void {
    const { ctx } = this;
    this.#clearFirstTokenTimer();
    if (this.#status !== 200) {
      const routeId = ctx.model.directRouteId;
      const answer = answerForStatus(this.#status, this.#headers, Buffer.concat(this.#held), routeId);
      sendRaw(ctx.res, answer.status, answer.body, { ...answer.headers, ...wardenHeaders(ctx, routeId) });
      finishAttempt(ctx, routeId, answer.outcome);
      return;
    }
    if (!this.#committed) {
      // The stream ended without a token. Either it was not an event stream at all, or an
      // empty answer: relay the latter as it is, refuse the former.
      const everything = Buffer.concat(this.#held);
      if (!everything.includes(DONE_MARK) && this.#served === null && !looksLikeSse(everything)) {
        return this.onError(invalidResponse(`upstream answered 200 without an event stream (${describe(everything)})`));
      }
      this.#commit();
    }
    if (!this.#tail.includes(DONE_MARK)) return this.#failCommitted(invalidResponse('upstream closed the stream before it finished'));
    ctx.res.end();
    finishAttempt(ctx, this.#routeId(), this.#sawErrorFinish ? 'stream_error' : 'ok');
  }

  onError(failure: UpstreamFailure): void {
    const { ctx } = this;
    this.#clearFirstTokenTimer();
    if (failure.kind === 'aborted') {
      finishAttempt(ctx, this.#routeId(), 'client_aborted');
      return;
    }
    ctx.log.warn({ requestId: ctx.requestId, route: this.#routeId(), code: failure.code, committed: this.#committed }, failure.message);
    if (this.#committed) return this.#failCommitted(failure);
    sendError(ctx.res, errorForFailure(failure, this.#routeId()), wardenHeaders(ctx, this.#routeId()));
    finishAttempt(ctx, this.#routeId(), outcomeForFailure(failure));
  }

  #commit(): void {
    const { ctx } = this;
    this.#committed = true;
    this.#reader = null;
    this.#clearFirstTokenTimer();
    ctx.metrics.recordFirstToken(ctx.plan.label, this.#routeId(), (performance.now() - ctx.startedAt) / 1000);
    ctx.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      ...wardenHeaders(ctx, this.#routeId()),
    });
    ctx.res.on('drain', this.#onDrain);
    const held = this.#held;
    this.#held = [];
    for (const chunk of held) this.#forward(chunk);
  }

  #forward(chunk: Buffer): void {
    if (!this.#sawErrorFinish && chunk.includes(ERROR_FINISH)) this.#sawErrorFinish = true;
    this.#tail = chunk.length >= TAIL_BYTES ? chunk.subarray(chunk.length - TAIL_BYTES) : Buffer.concat([this.#tail, chunk]).subarray(-TAIL_BYTES);
    if (!this.ctx.res.write(chunk)) this.#exchange?.pause();
  }

  /** After the headers went out the status cannot change: the stream ends with an error event. */
  #failCommitted(failure: UpstreamFailure): void {
    const { ctx } = this;
    const error = new GatewayError(502, failure.code, 'upstream_error', `upstream ${this.#routeId()}: ${failure.message}`);
    if (!ctx.res.destroyed) ctx.res.end(sseData(error.toBody()));
    finishAttempt(ctx, this.#routeId(), outcomeForFailure(failure) === 'timeout' ? 'timeout' : 'stream_error');
  }

  #routeId(): string {
    return this.ctx.model.routeIdFor(this.#served);
  }

  #clearFirstTokenTimer(): void {
    if (this.#firstTokenTimer) clearTimeout(this.#firstTokenTimer);
    this.#firstTokenTimer = null;
  }
}

/** The first chunk that a user would see: text, a tool call, or the end of the answer. */
function startsAnswer(chunk: ChatCompletionChunk): boolean {
  const choice = chunk.choices?.[0];
  if (!choice) return false;
  return Boolean(choice.delta?.content) || Boolean(choice.delta?.tool_calls?.length) || choice.finish_reason != null;
}

function looksLikeSse(body: Buffer): boolean {
  return body.includes('data:') || body.length === 0;
}

function errorMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown })?.message;
  return typeof message === 'string' ? message.slice(0, 300) : 'unknown error';
}
