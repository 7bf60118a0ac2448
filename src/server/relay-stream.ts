// Relays a streamed completion. Until the answer starts, the stream is read event by event
// and held back: the served endpoint is learnt, garbage or an early error can still fall
// back, the first-token timeout can act, and — when the role sets a hold-back window — the
// gate judges the first characters before anything is sent; an answer whose end was read
// before the commit (it fit in the window, or it all came with its first token) gets the
// whole gate. With `n` > 1 every choice is judged so, each on its own (StreamAnswer). After the commit, bytes go to the client as they arrive, with backpressure,
// each event checked on its bytes (SseEventCheck) before it goes; they are parsed only when
// the role's checks need the whole text. A failure
// after the commit ends the stream with an SSE error event — one: none of Warden's when the
// upstream's own error event already went out.
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { CatalogModel } from '../catalog/index.js';
import { errorMessageOf, GatewayError } from '../protocol/errors.js';
import { parseChunk } from '../protocol/chunk.js';
import { holdsAnswerEnd } from '../protocol/peek.js';
import { SSE_DONE, SseReader, sseData } from '../protocol/sse.js';
import { SseEventCheck } from '../protocol/sse-check.js';
import { RelayedUsage } from '../protocol/usage-events.js';
import type { GateResult } from '../routing/gate.js';
import { carriesReasoning, invalidResponse, redactBody, redactText, sinkFailure, streamCut, stripReasoningDelta, UpstreamFailure, type Exchange, type ExchangeSink } from '../upstream/index.js';
import type { AttemptResult } from './attempt-result.js';
import { StreamAnswer } from './stream-answer.js';
import type { StreamJudging } from './stream-judging.js';
import { describe } from './relay-json.js';

export interface StreamHooks {
  /** The role's gate: hold-back window and judgements (the same for every attempt of a request). */
  judging: StreamJudging;
  /** Thinking-off roles: reasoning fields are taken out of every chunk, which is then re-encoded. */
  stripReasoning: boolean;
  /** Headers of the answer, once the served endpoint is known. */
  headers(servedEndpoint: string | null): OutgoingHttpHeaders;
  /** The route the error event names. */
  routeId(servedEndpoint: string | null): string;
  onFirstToken(servedEndpoint: string | null): void;
  /** Warden asked the upstream for usage the client did not ask for: the usage chunk is taken out before the client reads it. */
  dropUsage: boolean;
}

const ERROR_FINISH = Buffer.from('"finish_reason":"error"');
const REJECTED = new UpstreamFailure('aborted', 'rejected_by_gate', 'the held-back answer failed the quality gate');

export class StreamRelay implements ExchangeSink {
  #exchange: Exchange | null = null;
  #status = 0;
  #headers: IncomingHttpHeaders = {};
  #held: Buffer[] = [];
  #reader: SseReader | null = new SseReader();
  #committed = false;
  #settled = false;
  #served: string | null = null;
  #answer = new StreamAnswer();
  #started = false;
  /**
   * Reasoning came before the answer while it is held (a hold-back window, or a thinking-off
   * role that strips it): the upstream is alive — no first-token timeout, the first token is
   * recorded — but the window still waits for the answer's own content.
   */
  #thinking = false;
  /** The first token was read and the stream commits on it: onData announces it after the write. */
  #firstTokenDue = false;
  readonly #usage: RelayedUsage;
  #sawDone = false;
  /** The upstream's own error event went to the client (an error object, or finish_reason "error"). */
  #sawUpstreamError = false;
  #holdTimer: NodeJS.Timeout | null = null;
  #onDrain = () => this.#exchange?.resume();
  /** Re-encoded events waiting to go out, when reasoning is stripped; null relays raw bytes. */
  #out: string[] | null;
  /** What raw bytes pass on their way out; null when events are re-encoded from their parse. */
  #check: SseEventCheck | null;

  constructor(
    private readonly res: ServerResponse,
    private readonly model: CatalogModel,
    private readonly hooks: StreamHooks,
    private readonly done: (result: AttemptResult) => void,
  ) {
    this.#out = hooks.stripReasoning ? [] : null;
    this.#check = hooks.stripReasoning ? null : new SseEventCheck();
    this.#usage = new RelayedUsage(hooks.dropUsage);
  }

  /** The exchange this relay reads; it keeps the first-token deadline (exchangeWith with `stream`). */
  attach(exchange: Exchange): void {
    this.#exchange = exchange;
  }

  onResponse(status: number, headers: IncomingHttpHeaders): void {
    this.#status = status;
    this.#headers = headers;
    if (status !== 200) this.#clearTimers();
  }

  onData(chunk: Buffer): void {
    if (this.#settled) return;
    if (this.#status !== 200) {
      this.#held.push(chunk);
      return;
    }
    if (this.#out) return this.#onDataRewritten(chunk);
    if (this.#committed) {
      if (this.#forward(this.#check!.take(chunk)) && this.#reader) this.#read(chunk);
      return;
    }
    this.#held.push(chunk);
    if (!this.#read(chunk)) return;
    this.#afterRead();
    // Committed at the first token: the client has it; now the bookkeeping, and the rest of
    // the chunk's events when they are still read.
    if (this.#firstTokenDue) {
      this.#firstTokenDue = false;
      if (this.#settled) return;
      this.hooks.onFirstToken(this.#served);
      if (this.#committed && this.#reader) this.#readEvents();
    }
  }

  /** The same path, with the chunk's events re-encoded instead of relayed as bytes. */
  #onDataRewritten(chunk: Buffer): void {
    if (!this.#read(chunk)) return;
    const bytes = Buffer.from(this.#out!.join(''));
    this.#out!.length = 0;
    if (this.#committed) {
      if (bytes.length > 0) this.#forward(bytes);
      return;
    }
    if (bytes.length > 0) this.#held.push(bytes);
    this.#afterRead();
  }

  #afterRead(): void {
    if (this.#started && this.#holdBackSatisfied()) this.#tryCommit();
    else if (this.#started && this.#holdTimer === null && this.hooks.judging.holdBack) {
      this.#holdTimer = setTimeout(this.#onHoldTimeout, this.hooks.judging.holdBack.ms);
    }
  }

  /** The window's time is up: commit what is held. Outside the exchange's callbacks, so a throw is caught here, as the exchange does. */
  #onHoldTimeout = (): void => {
    try {
      this.#tryCommit();
    } catch (e) {
      this.#exchange!.abort(sinkFailure(e));
    }
  };

  onEnd(): void {
    if (this.#settled) return;
    this.#clearTimers();
    if (this.#status !== 200) {
      return this.#settle({ kind: 'status', status: this.#status, headers: this.#headers, body: redactBody(Buffer.concat(this.#held), this.model.upstream.credentials), servedEndpoint: null });
    }
    if (!this.#committed) {
      const everything = Buffer.concat(this.#held);
      if (!this.#started && !this.#sawDone && this.#served === null && !(everything.includes('data:') || everything.length === 0)) {
        return this.onError(invalidResponse(`upstream answered 200 without an event stream (${describe(everything)})`));
      }
      // Nothing went out yet: a stream that ended before its [DONE] is a lost stream like a
      // reset — the route failed, and the next one answers — not a start to commit and cut.
      if (!this.#readToDone()) return this.onError(streamCut());
      if (!this.#tryCommit()) return;
    }
    if (this.#check && !this.#forward(this.#check.end())) return;
    const finished = this.#check ? this.#check.sawDone : this.#sawDone;
    // After the upstream's own error event the stream is over, [DONE] or not.
    if (!finished && !this.#sawUpstreamError) return this.#failCommitted(streamCut());
    this.res.end();
    this.#settle(this.#streamed(null));
  }

  onError(failure: UpstreamFailure): void {
    if (this.#settled) return;
    this.#clearTimers();
    if (this.#committed) return this.#failCommitted(failure);
    this.#settle({ kind: 'failure', failure, servedEndpoint: this.#served });
  }

  /** Parses events; false when the attempt was ended (garbage or an early error). */
  #read(chunk: Buffer): boolean {
    this.#reader!.feed(chunk);
    return this.#readEvents();
  }

  #readEvents(): boolean {
    const reader = this.#reader!;
    for (let event = reader.next(); event !== null; event = reader.next()) {
      if (event.data === null) continue;
      if (event.data === '[DONE]') {
        this.#sawDone = true;
        this.#out?.push(SSE_DONE);
        continue;
      }
      const parsed = parseChunk(event.data);
      if (parsed === null) return this.#invalid(event.data);
      this.#served ??= this.model.adapter.servedEndpoint(parsed);
      // Read before a thinking-off role strips it: thinking is the upstream at work all the same.
      const thinking = !this.#started && !this.#thinking && carriesReasoning(parsed);
      this.#out?.push(stripReasoningDelta(parsed) ? sseData(parsed) : `data: ${event.data}\n\n`);
      if (parsed.error) {
        if (this.#committed) this.#sawUpstreamError = true;
        else {
          this.#exchange!.abort(invalidResponse(`upstream stream failed before the first token: ${redactText(errorMessageOf(parsed.error) ?? 'unknown error', this.model.upstream.credentials)}`));
          return false;
        }
      }
      if (parsed.usage) this.#usage.usage = parsed.usage;
      const choices = parsed.choices;
      if (!choices?.length) continue;
      // With `n` > 1 the choices interleave, one or more per event: each is judged on its own.
      let answers = this.#answer.read(choices[0]!);
      for (let i = 1; i < choices.length; i++) answers = this.#answer.read(choices[i]!) || answers;
      if (this.#started) continue;
      // A thinking model's reasoning is the first of the answer: with no window to hold it, the
      // client sees it as it comes (it may think for minutes), else it only shows the upstream alive.
      const commitsNow = this.hooks.judging.holdBack === null && !this.#out;
      if (answers || (thinking && commitsNow)) {
        this.#started = true;
        this.#exchange?.endFirstTokenWait();
        // With no hold-back window the stream commits now: the first token goes out before
        // the rest of the chunk is read and before the first-token bookkeeping (onData does both).
        // Unless the answer's end is already here too (a short answer in one read): then the
        // rest is read first and the whole gate judges it before anything goes out, as a window would.
        if (!this.#committed && commitsNow) {
          this.#firstTokenDue = true;
          if (this.hooks.judging.judgeWhole === null || !holdsAnswerEnd(reader.unread())) return true;
          continue;
        }
        if (!this.#thinking) this.hooks.onFirstToken(this.#served);
      } else if (thinking) {
        this.#thinking = true;
        this.#exchange?.endFirstTokenWait();
        this.hooks.onFirstToken(this.#served);
      }
    }
    return true;
  }

  /**
   * Before the commit, at the stream's end: whether [DONE] was read, perhaps as a last event
   * the stream did not close with its blank line (re-encoded events get it added to what is held).
   */
  #readToDone(): boolean {
    if (this.#sawDone) return true;
    if (!this.#reader!.end().some((event) => event.data?.trim() === '[DONE]')) return false;
    this.#sawDone = true;
    if (this.#out) this.#held.push(Buffer.from(SSE_DONE));
    return true;
  }

  #holdBackSatisfied(): boolean {
    const hold = this.hooks.judging.holdBack;
    return hold === null || this.#answer.holds(hold.chars, this.hooks.judging.choices);
  }

  /** Judges the held-back start and commits; false when the gate rejected it. */
  #tryCommit(): boolean {
    if (this.#committed || this.#settled) return this.#committed;
    if (this.#holdTimer) clearTimeout(this.#holdTimer);
    this.#holdTimer = null;
    const verdict = this.#answer.judgeHeld(this.hooks.judging.judgeWhole, this.hooks.judging.judgeStart, this.#sawDone);
    if (verdict && !verdict.passed) {
      const served = this.#served;
      this.#settle({ kind: 'rejected', gate: verdict, servedEndpoint: served });
      this.#exchange!.abort(REJECTED);
      return false;
    }
    const held = this.#checkHeld();
    if (held === null) return false;
    this.#commit(held);
    return true;
  }

  /**
   * The held bytes that pass the check, taken from #held; null when an event failed it and the
   * attempt ended — before anything went out, so it falls back like garbage before the first token.
   */
  #checkHeld(): Buffer[] | null {
    const held = this.#held;
    this.#held = [];
    const check = this.#check;
    if (check === null) return held;
    for (let i = 0; i < held.length; i++) {
      held[i] = check.take(held[i]!);
      if (check.bad !== null) {
        this.#invalid(check.bad);
        return null;
      }
    }
    return held;
  }

  #commit(held: Buffer[]): void {
    this.#committed = true;
    if (this.hooks.judging.judgeWhole === null && !this.#out) this.#reader = null;
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      ...this.hooks.headers(this.#served),
    });
    this.res.on('drain', this.#onDrain);
    for (const chunk of held) this.#forward(chunk);
  }

  /**
   * Relays bytes; with raw bytes, what the check let through, and false (the attempt ended)
   * when an event failed it.
   */
  #forward(chunk: Buffer): boolean {
    // Out first: what is learnt from the bytes can wait until the client has them. They go out
    // whole events at a time, so a credential an upstream quotes (its own error event) is cut whole.
    this.#usage.relay(chunk, this.#write, this.#reader === null);
    if (!this.#sawUpstreamError && (chunk.includes(ERROR_FINISH) || this.#check?.sawError)) this.#sawUpstreamError = true;
    const bad = this.#check?.bad;
    return bad == null || this.#invalid(bad);
  }

  #write = (bytes: Buffer): void => {
    if (bytes.length > 0 && !this.res.write(redactBody(bytes, this.model.upstream.credentials))) this.#exchange?.pause();
  };

  /** An event that is not a JSON chunk: before the commit the attempt can fall back; after it the stream ends with an error event. */
  #invalid(data: string): false {
    const failure = invalidResponse(`upstream stream sent an event that is not a JSON chat completion chunk: ${JSON.stringify(redactText(data, this.model.upstream.credentials).slice(0, 60))}`);
    // Re-encoded events of the chunk read before this one go out first.
    if (this.#committed && this.#out && this.#out.length > 0) {
      this.#forward(Buffer.from(this.#out.join('')));
      this.#out.length = 0;
    }
    this.#exchange!.abort(failure);
    // When the upstream has already ended (the last event, checked at the end), no abort reports back.
    this.onError(failure);
    return false;
  }

  /**
   * After the headers went out the status cannot change: the stream ends with an error event.
   * Not for Warden's own failure (`internal`): writing may be what failed, the execution ends it.
   */
  #failCommitted(failure: UpstreamFailure): void {
    if (failure.kind !== 'aborted' && failure.kind !== 'internal' && !this.res.destroyed) {
      // The upstream's own error event is the client's error event: one, not two.
      if (this.#sawUpstreamError) this.res.end();
      else this.res.end(sseData(new GatewayError(502, failure.code, 'upstream_error', `upstream ${this.hooks.routeId(this.#served)}: ${failure.message}`).toBody()));
    }
    this.#settle(this.#streamed(failure));
  }

  #streamed(failure: UpstreamFailure | null): AttemptResult {
    return {
      kind: 'streamed',
      servedEndpoint: this.#served,
      failure,
      verdict: failure === null && this.hooks.judging.judgeWhole ? this.#answer.judgeRest(this.hooks.judging.judgeWhole) : null,
      usage: this.#usage.usage,
      sawUpstreamError: this.#sawUpstreamError,
    };
  }

  #settle(result: AttemptResult): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#clearTimers();
    this.res.off('drain', this.#onDrain);
    this.done(result);
  }

  #clearTimers(): void {
    this.#exchange?.endFirstTokenWait();
    if (this.#holdTimer) clearTimeout(this.#holdTimer);
    this.#holdTimer = null;
  }
}
