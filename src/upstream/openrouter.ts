// OpenRouter: one model name, many provider endpoints behind it. Pinning sends
// `provider: {order: [slug], allow_fallbacks: false}` so nothing can mask the pinned
// endpoint's faults; normal traffic adds the out-of-service endpoints' slugs to
// `provider.ignore`, merged with whatever routing preferences the client sent. Warden knows
// endpoints by display name; only what goes on the wire is a slug (endpoint-names.ts).
import type { ProviderPreferences } from '../protocol/types.js';
import type { AttemptTarget, UpstreamAdapter } from './adapter.js';
import { entryNamesProvider } from './endpoint-names.js';
import { applySwitch } from './thinking.js';

export const openRouter: UpstreamAdapter = {
  kind: 'openrouter',
  hasEndpoints: true,
  shapeBody(body, target) {
    body.model = target.upstreamModel;
    const merged = mergeProviderPreferences(body.provider, target);
    if (merged) body.provider = merged;
    // OpenRouter's unified reasoning switch; `exclude` keeps any reasoning out of the answer.
    if (target.thinking === 'off') body.reasoning = { enabled: false, exclude: true };
    else if (target.thinking === 'on') body.reasoning = { ...(body.reasoning as object | undefined), enabled: true };
    applySwitch(body, target);
  },
  servedEndpoint(answer) {
    return typeof answer.provider === 'string' && answer.provider ? answer.provider : null;
  },
};

export function mergeProviderPreferences(client: ProviderPreferences | undefined, target: AttemptTarget): ProviderPreferences | undefined {
  if (target.pinnedEndpoint !== null) {
    // A pin overrides the client's order and fallbacks, by definition of a pin; other
    // preferences (data collection, quantizations, …) still apply.
    return { ...client, order: [slugOf(target, target.pinnedEndpoint)], allow_fallbacks: false, only: undefined, ignore: undefined };
  }
  if (target.ignoredEndpoints.length === 0) return client;
  const ignore = client?.ignore?.length ? [...client.ignore] : [];
  const given = ignore.map((entry) => entry.trim().toLowerCase());
  for (const name of target.ignoredEndpoints) {
    const slug = slugOf(target, name);
    // An endpoint already ignored (by the client, by whichever of its names) is not listed twice.
    if (given.some((entry) => entryNamesProvider(entry, name, slug))) continue;
    ignore.push(slug);
    given.push(slug.toLowerCase());
  }
  return { ...client, ignore };
}

function slugOf(target: AttemptTarget, endpoint: string): string {
  return target.routingSlugs.get(endpoint) ?? target.routingSlugs.get(endpoint.toLowerCase()) ?? endpoint;
}
