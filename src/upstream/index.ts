export type { UpstreamAdapter, AttemptTarget, EndpointInfo } from './adapter.js';
export { openAICompatible } from './openai-compatible.js';
export { openRouter, mergeProviderPreferences } from './openrouter.js';
export { Exchange, exchangeWith, type ExchangeSink, type ExchangeRequest } from './exchange.js';
export { PoolSet, poolFor, type UpstreamTarget } from './pools.js';
export { carriesReasoning, stripReasoning, stripReasoningDelta } from './thinking.js';
export { credentialsIn, redactBody, redactText } from './redact.js';
export { listEndpoints, parseEndpointListing } from './discovery.js';
export { entryNamesProvider, providerSlug, routingSlug } from './endpoint-names.js';
export { UpstreamFailure, isUpstreamFailure, invalidResponse, sinkFailure, streamCut, timeoutFailure, routeShed, quotaFull } from './errors.js';

import type { UpstreamAdapter } from './adapter.js';
import { openAICompatible } from './openai-compatible.js';
import { openRouter } from './openrouter.js';

/** The registry of adapters by the `kind` written in the config. */
export const adapters: Record<UpstreamAdapter['kind'], UpstreamAdapter> = {
  'openai-compatible': openAICompatible,
  openrouter: openRouter,
};
