// What one attempt came to, reported to the execution that decides what happens next.
// Only `streamed` has already reached the client; everything else can still fall back.
import type { IncomingHttpHeaders } from 'node:http';
import type { ChatCompletion, Usage } from '../protocol/types.js';
import { classifyStatus } from '../resilience/index.js';
import type { GateResult } from '../routing/gate.js';
import type { ErrorClass } from '../telemetry/index.js';
import type { UpstreamFailure } from '../upstream/index.js';

export type AttemptResult =
  | { kind: 'status'; status: number; headers: IncomingHttpHeaders; body: Buffer; servedEndpoint: null }
  | { kind: 'failure'; failure: UpstreamFailure; servedEndpoint: string | null }
  /** `completion` is null when the relay only peeked (no gate, no rewrite needed). */
  | { kind: 'answer'; body: Buffer; completion: ChatCompletion | null; usage: Usage | null; servedEndpoint: string | null }
  | { kind: 'rejected'; gate: GateResult; servedEndpoint: string | null }
  | {
      kind: 'streamed';
      servedEndpoint: string | null;
      /** Null when the stream ended cleanly. */
      failure: UpstreamFailure | null;
      /**
       * The gate's verdict after the fact on what went out unjudged (every choice), when the
       * stream ended cleanly; null when the role has no checks or the gate passed it all before the commit.
       */
      verdict: GateResult | null;
      usage: Usage | null;
      /** The upstream's own error event went to the client, ending the stream. */
      sawUpstreamError: boolean;
    };

/** How an attempt ended for `warden_upstream_attempts_total`, before the quality gate has its say. */
export function errorClassOf(result: AttemptResult): ErrorClass {
  switch (result.kind) {
    case 'status': {
      const outcome = classifyStatus(result.status);
      return outcome === 'transport' ? 'upstream_status' : outcome === 'ok' ? 'none' : outcome;
    }
    case 'failure':
      return result.failure.kind;
    case 'rejected':
      return 'quality';
    case 'streamed':
      return result.failure?.kind ?? 'none';
    case 'answer':
      return 'none';
  }
}
