// Relays a non-streaming completion: buffer the (small) answer and make sure it is a JSON
// completion. Nothing is sent here: the execution gates the answer first.
import type { IncomingHttpHeaders } from 'node:http';
import { looksLikeCompletion, peekString, peekUsage } from '../protocol/peek.js';
import type { ChatCompletion } from '../protocol/types.js';
import type { CatalogModel } from '../catalog/index.js';
import { invalidResponse, redactBody, type ExchangeSink, type UpstreamFailure } from '../upstream/index.js';
import type { AttemptResult } from './attempt-result.js';

export class JsonRelay implements ExchangeSink {
  #status = 0;
  #headers: IncomingHttpHeaders = {};
  #chunks: Buffer[] = [];

  constructor(
    private readonly model: CatalogModel,
    /** Parse the whole answer (the gate or a rewrite needs it); otherwise only peek at it. */
    private readonly parse: boolean,
    private readonly done: (result: AttemptResult) => void,
  ) {}

  onResponse(status: number, headers: IncomingHttpHeaders): void {
    this.#status = status;
    this.#headers = headers;
  }

  onData(chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onEnd(): void {
    const body = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    // An error answer reaches the client (passed through, or quoted in a 502): without Warden's credentials in it.
    if (this.#status !== 200) return this.done({ kind: 'status', status: this.#status, headers: this.#headers, body: redactBody(body, this.model.upstream.credentials), servedEndpoint: null });
    if (!this.parse) {
      if (!looksLikeCompletion(body)) return this.onError(this.#notCompletion(body));
      const served = this.model.adapter.hasEndpoints ? this.model.adapter.servedEndpoint({ provider: peekString(body, 'provider') }) : null;
      return this.done({ kind: 'answer', body, completion: null, usage: peekUsage(body), servedEndpoint: served });
    }
    let completion: ChatCompletion;
    try {
      completion = JSON.parse(body.toString('utf8')) as ChatCompletion;
      if (!completion || typeof completion !== 'object' || !Array.isArray(completion.choices)) throw new Error('no choices');
    } catch {
      return this.onError(this.#notCompletion(body));
    }
    this.done({ kind: 'answer', body, completion, usage: completion.usage ?? null, servedEndpoint: this.model.adapter.servedEndpoint(completion) });
  }

  #notCompletion(body: Buffer): UpstreamFailure {
    return invalidResponse(`upstream answered 200 with a body that is not a chat completion (${describe(redactBody(body, this.model.upstream.credentials))})`);
  }

  onError(failure: UpstreamFailure): void {
    this.done({ kind: 'failure', failure, servedEndpoint: null });
  }
}

/** A short, printable description of a body that should have been JSON. */
export function describe(body: Buffer): string {
  if (body.length === 0) return 'empty body';
  const text = body.subarray(0, 60).toString('utf8').replace(/\s+/g, ' ');
  return `${body.length} bytes starting ${JSON.stringify(text)}`;
}
