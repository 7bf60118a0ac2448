// Sends one decided reply the way the provider would: after its latency, at its token rate,
// with the transport-level fault (error status, hang, reset, garbage, stream error, garbage
// mid-stream, a body cut short by a clean close) it drew.
// A client that goes away stops everything at once: the pending timer is cleared.
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Usage } from '../protocol/types.js';
import type { FaultName } from './faults.js';
import { sendError, sendJson } from './http.js';
import type { Reply } from './reply.js';
import type { ProviderSpec } from './scenario.js';
import { StreamChoices } from './stream-choices.js';
import { ChunkWriter, completionBody, DONE, PROCESSING, type Envelope } from './wire.js';

export interface Delivery {
  res: ServerResponse;
  provider: ProviderSpec;
  fault: FaultName | null;
  /** Choice 0. */
  reply: Reply;
  /** The other choices of a request's `n`; a stream interleaves them with choice 0 (StreamChoices). */
  moreChoices: readonly Reply[];
  envelope: Envelope;
  /** Null from a provider that reports none (scenario `usage: none`). */
  usage: Usage | null;
  stream: boolean;
  includeUsage: boolean;
  /** OpenRouter path and a provider that keeps the stream alive with SSE comments. */
  processingComments: boolean;
  /** The request's Authorization, quoted in error answers (scenario `quoteCredentials`); null quotes nothing. */
  credentials: string | null;
  onStreamOpen(): void;
  /** Holds the stream after its first content chunk until `resume` is called; null streams on. */
  hold: ((resume: () => void) => () => void) | null;
}

/** How many content chunks a stream sends before a `reset`, `streamError`, `streamGarbage` or `streamCut` cuts it. */
const CUT_AFTER = 3;

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };
const GARBAGE_BODIES = [
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>\n',
  'upstream connect error or disconnect/reset before headers. reset reason: overflow',
];
const GARBAGE_SSE = 'data: {"choices":[{"index":0,"delta":{"content":\n\ndata: <html><body>Bad Gateway</body></html>\n\n';

export function deliver(d: Delivery): void {
  if (d.fault === 'hang') return; // nothing at all, until the client gives up
  const pacer = new Pacer(d.res);
  pacer.after(d.provider.latencyMs, () => (d.stream ? openStream(d, pacer) : answerWhole(d, pacer)));
}

function answerWhole(d: Delivery, pacer: Pacer): void {
  const { res, fault } = d;
  if (failBeforeResponse(d)) return;
  if (fault === 'garbage' || fault === 'streamGarbage') return sendJson(res, 200, GARBAGE_BODIES[d.reply.pieces.length % 2] as string);
  if (fault === 'streamError') return sendError(res, 502, quoted(d, 'Provider returned error'), 'upstream_error', 'provider_error');
  const body = completionBody(d.envelope, d.reply, d.usage, d.provider.reasoning, d.moreChoices);
  const generation = d.provider.firstTokenMs + tokensTime(d.provider, d.reply.pieces.length);
  if (fault === 'reset') {
    // Headers promise the whole body; half of it arrives, then the connection drops.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.flushHeaders();
    pacer.after(generation, () => res.write(body.slice(0, body.length >> 1), () => res.destroy()));
    return;
  }
  if (fault === 'streamCut') {
    // No length promised: the response ends cleanly after half the body, as a proxy that gave up would end it.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    pacer.after(generation, () => res.end(body.slice(0, body.length >> 1)));
    return;
  }
  if (generation <= 0) return sendJson(res, 200, body);
  // Headers go out after the latency, the body once the whole reply is "generated".
  res.writeHead(200, { 'content-type': 'application/json' });
  res.flushHeaders();
  pacer.after(generation, () => res.end(body));
}

/** An error message, with the request's credentials quoted when the provider plays one that leaks them. */
const quoted = (d: Delivery, message: string) => (d.credentials === null ? message : `${message} (request authorization: ${d.credentials})`);

function failBeforeResponse(d: Delivery): boolean {
  const { res } = d;
  switch (d.fault) {
    case 'error500':
      sendError(res, 500, quoted(d, 'The server had an error while processing your request.'), 'api_error', 'internal_error');
      return true;
    case 'error502':
      sendError(res, 502, quoted(d, 'Bad gateway: the provider returned an invalid response.'), 'upstream_error', 'bad_gateway');
      return true;
    case 'error503':
      sendError(res, 503, quoted(d, 'The provider is temporarily overloaded. Please try again later.'), 'service_unavailable', 'service_unavailable');
      return true;
    case 'rateLimit':
      sendError(res, 429, quoted(d, 'Rate limit reached for requests. Please retry later.'), 'rate_limit_error', 'rate_limit_exceeded', null, {
        'retry-after': String(d.provider.retryAfter),
      });
      return true;
    default:
      return false;
  }
}

function openStream(d: Delivery, pacer: Pacer): void {
  if (failBeforeResponse(d)) return;
  const { res, reply, fault } = d;
  const chunks = new ChunkWriter(d.envelope, d.includeUsage && d.provider.usage === 'running' ? d.usage : null);
  const choices = new StreamChoices(chunks, d.moreChoices.length === 0 ? [reply] : [reply, ...d.moreChoices]);
  res.writeHead(200, SSE_HEADERS);
  d.onStreamOpen();
  res.write((d.processingComments ? PROCESSING : '') + choices.opening(d.provider.reasoning));
  if (fault === 'garbage') {
    res.end(GARBAGE_SSE + DONE);
    return;
  }
  const cut = fault === 'reset' || fault === 'streamError' || fault === 'streamGarbage' || fault === 'streamCut';
  const count = cut ? Math.min(CUT_AFTER, choices.rounds) : choices.rounds;
  const end = (rest: string) => {
    if (fault === 'reset') return void res.write(rest || '\n', () => res.destroy());
    // The response ends cleanly mid-answer: no finish reason, no [DONE] (a proxy that gave up).
    if (fault === 'streamCut') return void res.end(rest);
    if (fault === 'streamError') return void res.end(rest + chunks.streamError(quoted(d, 'Provider returned error')) + DONE);
    // A proxy on the way that broke mid-answer: what follows the content is not JSON.
    if (fault === 'streamGarbage') return void res.end(rest + GARBAGE_SSE + DONE);
    res.end(rest + choices.finish() + (d.includeUsage && d.usage ? chunks.usage(d.usage) : '') + DONE);
  };
  const generate = () => sendPieces(d, choices, pacer, count, end, d.hold);
  const firstToken = d.provider.firstTokenMs;
  // A slow first token on OpenRouter comes with a keep-alive comment halfway through the wait.
  if (d.processingComments && firstToken > 0) {
    pacer.after(firstToken / 2, () => {
      res.write(PROCESSING);
      pacer.after(firstToken / 2, generate);
    });
  } else {
    pacer.after(firstToken, generate);
  }
}

/**
 * Rounds of pieces (one piece of each choice) on a fixed schedule from the first token; late
 * rounds go out together in one write. With `hold`, the first round goes out alone and the rest
 * waits for the release.
 */
function sendPieces(d: Delivery, choices: StreamChoices, pacer: Pacer, count: number, end: (rest: string) => void, hold: Delivery['hold']): void {
  const interval = d.provider.tokensPerSecond > 0 ? 1000 / d.provider.tokensPerSecond : 0;
  let start = performance.now();
  let next = 0;
  const step = () => {
    const due = interval === 0 ? count : Math.min(count, Math.floor((performance.now() - start) / interval) + 1);
    let out = '';
    for (; next < (hold ? 1 : due); next++) out += choices.round(next);
    if (next >= count) return end(out);
    d.res.write(out);
    if (hold) {
      const unhold = hold(() => {
        hold = null;
        // The schedule starts again from the release, as if the first piece had just gone out.
        start = performance.now() - interval;
        pacer.after(0, step);
      });
      d.res.once('close', unhold);
      return;
    }
    pacer.after(start + next * interval - performance.now(), step);
  };
  step();
}

function tokensTime(provider: ProviderSpec, tokens: number): number {
  return provider.tokensPerSecond > 0 ? (tokens * 1000) / provider.tokensPerSecond : 0;
}

/** One pending timer per response, cleared when the client goes away. */
class Pacer {
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(res: ServerResponse) {
    res.once('close', () => {
      this.#closed = true;
      clearTimeout(this.#timer);
    });
  }

  after(ms: number, run: () => void): void {
    if (this.#closed) return;
    if (ms <= 0) return run();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closed) run();
    }, ms);
  }
}
