// What one attempt sends upstream. When the model name is the only change, the client's own
// bytes go out with that value replaced (splice.ts: no JSON.stringify of a long history per
// attempt); otherwise the route's adapter shapes the body (provider pinning and ignore lists,
// thinking switches) and it is serialised.
import { spliceModel } from '../protocol/splice.js';
import type { ChatRequest } from '../protocol/types.js';
import type { AttemptChoice } from '../routing/index.js';

export function attemptPayload(raw: Buffer, original: ChatRequest, choice: AttemptChoice): string | Buffer {
  const { model } = choice;
  const onlyModel = choice.thinking === 'auto' && choice.pinnedEndpoint === null && choice.ignoredEndpoints.length === 0;
  const spliced = onlyModel ? spliceModel(raw, original.model, model.upstreamModel) : null;
  if (spliced !== null) return spliced;
  // Shaping replaces top-level fields, so every attempt shapes a copy: shaped in place, a first
  // attempt's pin (a recovery probe's `provider.order`) stayed in the client's request and the
  // next attempt merged it as the client's own preference, asking for the endpoint it ignored.
  const body = { ...original };
  model.adapter.shapeBody(body, {
    upstreamModel: model.upstreamModel,
    pinnedEndpoint: choice.pinnedEndpoint,
    ignoredEndpoints: choice.ignoredEndpoints,
    routingSlugs: model.routingSlugs,
    thinking: choice.thinking,
    thinkingSwitch: model.upstream.thinkingSwitch,
  });
  return JSON.stringify(body);
}
