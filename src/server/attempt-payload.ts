// What one attempt sends upstream. When the model name is the only change, the client's own
// bytes go out with that value replaced (splice.ts: no JSON.stringify of a long history per
// attempt); otherwise the route's adapter shapes the body (provider pinning and ignore lists,
// thinking switches) and it is serialised.
import type { CatalogModel } from '../catalog/index.js';
import { spliceField, spliceModel } from '../protocol/splice.js';
import type { ChatRequest } from '../protocol/types.js';
import type { AttemptChoice } from '../routing/index.js';

/** `"stream_options":{"include_usage":true}`, put into a streamed body whose client set no stream_options. */
const ASK_USAGE = Buffer.from('"stream_options":{"include_usage":true}');

/**
 * Whether Warden asks the upstream for a stream's usage that the client did not ask for (the
 * relay then takes the usage chunk out again: see protocol/usage-events.ts). Off for a provider
 * with `streamUsage: false`, one that refuses the field.
 */
export function wardenAsksUsage(original: ChatRequest, model: CatalogModel): boolean {
  return original.stream === true && original.stream_options?.include_usage !== true && model.upstream.streamUsage;
}

/** `asksUsage`: wardenAsksUsage for this attempt's model, decided once by the caller, which tells the relay too. */
export function attemptPayload(raw: Buffer, original: ChatRequest, choice: AttemptChoice, asksUsage: boolean): string | Buffer {
  const { model } = choice;
  const onlyModel = choice.thinking === 'auto' && choice.pinnedEndpoint === null && choice.ignoredEndpoints.length === 0;
  // A body with stream_options of the client's own is shaped below: a second key would be ambiguous.
  const spliced = onlyModel && (!asksUsage || original.stream_options === undefined) ? spliceModel(raw, original.model, model.upstreamModel) : null;
  if (spliced !== null) return asksUsage ? (spliceField(spliced, ASK_USAGE) ?? shaped(original, choice, true)) : spliced;
  return shaped(original, choice, asksUsage);
}

function shaped(original: ChatRequest, choice: AttemptChoice, asksUsage: boolean): string {
  const { model } = choice;
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
  if (asksUsage) body.stream_options = { ...original.stream_options, include_usage: true };
  return JSON.stringify(body);
}
