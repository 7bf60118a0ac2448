// Sends one probe to one route, pinned to it alone with fallbacks off, with the same
// credentials, timeouts and upstream model name as live traffic; reports what came back
// (status, text, first-token time) without judging it.
import type { CatalogModel } from '../catalog/index.js';
import { parseChunk } from '../protocol/chunk.js';
import { SseReader } from '../protocol/sse.js';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest } from '../protocol/types.js';
import { classifyStatus } from '../resilience/index.js';
import { carriesReasoning, exchangeWith, UpstreamFailure, type Exchange, type ExchangeSink, type PoolSet } from '../upstream/index.js';
import type { ProbeExchange, ProbeRequest } from './types.js';

export interface ProbeTarget {
  model: CatalogModel;
  /** The endpoint to pin (aggregator routes), or null for a direct route. */
  endpoint: string | null;
}

const FIRST_TOKEN_SEEN = new UpstreamFailure('aborted', 'probe_first_token', 'first token received; the latency probe needs no more');
const OVER_LIMIT = new UpstreamFailure('aborted', 'probe_first_token_over_limit', 'no first token within the limit');
const STOPPED = new UpstreamFailure('aborted', 'canary_stopped', 'the gateway is shutting down');
const STREAM_GARBAGE = new UpstreamFailure('aborted', 'probe_stream_garbage', 'the stream sent garbage; the probe is already reported');

/**
 * `firstTokenLimitMs` bounds how long a latency probe waits for its first token after the
 * headers; `signal` ends the probe early (the gateway shutting down).
 */
export function sendProbe(target: ProbeTarget, probe: ProbeRequest, pools: PoolSet, firstTokenLimitMs: number, signal?: AbortSignal): Promise<ProbeExchange> {
  const { model } = target;
  const body = { ...probe.body, model: model.upstreamModel } as ChatRequest;
  model.adapter.shapeBody(body, { upstreamModel: model.upstreamModel, pinnedEndpoint: target.endpoint, ignoredEndpoints: [], routingSlugs: model.routingSlugs, thinking: 'auto', thinkingSwitch: undefined });
  const started = performance.now();
  return new Promise((resolve) => {
    const sink = new ProbeSink(probe, started, firstTokenLimitMs, resolve);
    const exchange = exchangeWith(model, pools, JSON.stringify(body), sink);
    sink.exchange = exchange;
    if (!signal) return;
    const stop = () => exchange.abort(STOPPED);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    sink.onDone = () => signal.removeEventListener('abort', stop);
  });
}

class ProbeSink implements ExchangeSink {
  exchange: Exchange | null = null;
  onDone: (() => void) | null = null;
  #status = 0;
  #chunks: Buffer[] = [];
  #reader: SseReader | null;
  #text = '';
  #finish: string | null = null;
  #firstTokenMs: number | null = null;
  #limitTimer: NodeJS.Timeout | null = null;
  #done = false;

  constructor(
    private readonly probe: ProbeRequest,
    private readonly started: number,
    private readonly firstTokenLimitMs: number,
    private readonly resolve: (e: ProbeExchange) => void,
  ) {
    this.#reader = probe.body.stream === true ? new SseReader() : null;
  }

  onResponse(status: number): void {
    this.#status = status;
    if (status === 200 && this.probe.stopAtFirstToken) {
      // Headers came: from here on, silence is slowness of the route, not a transport fault.
      this.#limitTimer = setTimeout(() => this.exchange?.abort(OVER_LIMIT), this.firstTokenLimitMs);
    }
  }

  onData(chunk: Buffer): void {
    if (!this.#reader || this.#status !== 200) {
      this.#chunks.push(chunk);
      return;
    }
    for (const event of this.#reader.push(chunk)) {
      if (event.data === null || event.data === '[DONE]') continue;
      const parsed = parseChunk(event.data);
      if (parsed === null) {
        // Garbage instead of events (an HTML error page, an event cut short) is a transport
        // fault: judged as a reply it would be a latency "failure" of the route's quality.
        this.#report('upstream_invalid_response', 'transport');
        return this.exchange?.abort(STREAM_GARBAGE);
      }
      const choice = parsed.choices?.[0];
      if (choice?.delta?.content) this.#text += choice.delta.content;
      // A thinking model's reasoning is its first token, as the gateway's streams count it: the
      // user of a thinking route sees it at once, however long the model thinks before its answer.
      if (choice?.delta?.content || (this.#firstTokenMs === null && carriesReasoning(parsed))) {
        if (this.#firstTokenMs === null) {
          this.#firstTokenMs = performance.now() - this.started;
          if (this.probe.stopAtFirstToken) return this.exchange?.abort(FIRST_TOKEN_SEEN);
        }
      }
      if (choice?.finish_reason) this.#finish = choice.finish_reason;
    }
  }

  onEnd(): void {
    if (this.#reader || this.#status !== 200) return this.#report(null);
    try {
      const completion = JSON.parse(Buffer.concat(this.#chunks).toString('utf8')) as ChatCompletion;
      const choice = completion.choices?.[0];
      this.#text = typeof choice?.message?.content === 'string' ? choice.message.content : '';
      this.#finish = choice?.finish_reason ?? null;
      this.#report(null);
    } catch {
      this.#report('upstream_invalid_response', 'transport');
    }
  }

  onError(failure: UpstreamFailure): void {
    if (failure === FIRST_TOKEN_SEEN || failure === OVER_LIMIT) return this.#report(null);
    // Warden's own throw is no fault of the route: reported as what it is, never as transport.
    this.#report(failure.code, failure.kind === 'internal' ? 'internal' : 'transport');
  }

  #report(error: string | null, forced?: ProbeExchange['outcome']): void {
    if (this.#done) return;
    this.#done = true;
    this.onDone?.();
    if (this.#limitTimer) clearTimeout(this.#limitTimer);
    const statusClass = this.#status === 0 ? 'transport' : classifyStatus(this.#status);
    const outcome: ProbeExchange['outcome'] =
      forced ?? (statusClass === 'ok' ? 'ok' : statusClass === 'client' ? 'client' : statusClass === 'config' ? 'config' : 'transport');
    this.resolve({
      outcome,
      status: this.#status || null,
      text: this.#text,
      finishReason: this.#finish,
      firstTokenMs: this.#firstTokenMs === null ? null : Math.round(this.#firstTokenMs),
      totalMs: Math.round(performance.now() - this.started),
      error: error ?? (outcome === 'ok' ? null : `upstream_status_${this.#status}`),
    });
  }
}

/** A stream event's chunk object; null when the data is not a JSON object. */
