// What one attempt sends upstream. When the model name is the only change, the client's own
// bytes go out with that value replaced (splice.ts: no JSON.stringify of a long history per
// attempt); otherwise the route's adapter shapes the body (provider pinning and ignore lists,
// thinking switches) and it is serialised.
import { spliceModel } from '../protocol/splice.js';
import type { ChatRequest } from '../protocol/types.js';
import type { AttemptChoice } from '../routing/index.js';

/** `firstAttempt`: later attempts shape a copy, since shaping replaces top-level fields in place. */
export function attemptPayload(raw: Buffer, original: ChatRequest, choice: AttemptChoice, firstAttempt: boolean): string | Buffer {
  const { model } = choice;
  const onlyModel = choice.thinking === 'auto' && choice.pinnedEndpoint === null && choice.ignoredEndpoints.length === 0;
  const spliced = onlyModel ? spliceModel(raw, original.model, model.upstreamModel) : null;
  if (spliced !== null) return spliced;
  const body = firstAttempt ? original : { ...original };
  model.adapter.shapeBody(body, {
    upstreamModel: model.upstreamModel,
    pinnedEndpoint: choice.pinnedEndpoint,
    ignoredEndpoints: choice.ignoredEndpoints,
    thinking: choice.thinking,
    thinkingSwitch: model.upstream.thinkingSwitch,
  });
  return JSON.stringify(body);
}
