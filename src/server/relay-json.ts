// Relays a non-streaming completion: buffer the (small) answer, make sure it is a JSON
// completion, learn which endpoint served it, and send the upstream's bytes unchanged.
import type { IncomingHttpHeaders } from 'node:http';
import type { ChatCompletion } from '../protocol/types.js';
import { invalidResponse, type Exchange, type ExchangeSink, type UpstreamFailure } from '../upstream/index.js';
import { finishAttempt, wardenHeaders, type AttemptContext } from './attempt.js';
import { sendError, sendRaw } from './respond.js';
import { answerForStatus, errorForFailure, outcomeForFailure } from './upstream-answer.js';

export class JsonRelay implements ExchangeSink {
  #status = 0;
  #headers: IncomingHttpHeaders = {};
  #chunks: Buffer[] = [];

  constructor(private readonly ctx: AttemptContext) {}

  attach(_exchange: Exchange): void {}

  onResponse(status: number, headers: IncomingHttpHeaders): void {
    this.#status = status;
    this.#headers = headers;
  }

  onData(chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onEnd(): void {
    const { ctx } = this;
    const body = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    if (this.#status !== 200) {
      const routeId = ctx.model.directRouteId;
      const answer = answerForStatus(this.#status, this.#headers, body, routeId);
      sendRaw(ctx.res, answer.status, answer.body, { ...answer.headers, ...wardenHeaders(ctx, routeId) });
      finishAttempt(ctx, routeId, answer.outcome);
      return;
    }
    let completion: ChatCompletion;
    try {
      completion = JSON.parse(body.toString('utf8')) as ChatCompletion;
      if (!completion || typeof completion !== 'object' || !Array.isArray(completion.choices)) throw new Error('no choices');
    } catch {
      this.onError(invalidResponse(`upstream answered 200 with a body that is not a chat completion (${describe(body)})`));
      return;
    }
    const routeId = ctx.model.routeIdFor(ctx.model.adapter.servedEndpoint(completion));
    sendRaw(ctx.res, 200, body, { 'content-type': 'application/json', ...wardenHeaders(ctx, routeId) });
    finishAttempt(ctx, routeId, 'ok');
  }

  onError(failure: UpstreamFailure): void {
    const { ctx } = this;
    const routeId = ctx.model.directRouteId;
    if (failure.kind !== 'aborted') sendError(ctx.res, errorForFailure(failure, routeId), wardenHeaders(ctx, routeId));
    finishAttempt(ctx, routeId, outcomeForFailure(failure));
    if (failure.kind !== 'aborted') ctx.log.warn({ requestId: ctx.requestId, route: routeId, code: failure.code }, failure.message);
  }
}

/** A short, printable description of a body that should have been JSON. */
export function describe(body: Buffer): string {
  if (body.length === 0) return 'empty body';
  const text = body.subarray(0, 60).toString('utf8').replace(/\s+/g, ' ');
  return `${body.length} bytes starting ${JSON.stringify(text)}`;
}
