// Which of an aggregator model's endpoints the client's own `provider` preferences let serve.
// OpenRouter takes provider slugs ("deepinfra"), endpoint slugs ("deepinfra/fp8", the
// listing's `tag`) or display names ("DeepInfra") in `only`, `ignore` and `order`; a slug
// without a variant names every endpoint of that provider. Warden reads the same lists so
// that its own choices (a recovery probe riding on the request, "is any endpoint left?")
// never send a request where the client said it must not go.
import type { ProviderPreferences } from '../protocol/types.js';
import type { CatalogModel, Route } from '../catalog/index.js';
import { entryNamesProvider, providerSlug } from '../upstream/index.js';

/** Whether the preferences restrict endpoints at all: false on the plain path, which then does nothing more. */
export function restrictsEndpoints(prefs: ProviderPreferences | undefined): prefs is ProviderPreferences {
  if (!prefs) return false;
  return nonEmpty(prefs.only) || nonEmpty(prefs.ignore) || (prefs.allow_fallbacks === false && nonEmpty(prefs.order));
}

/**
 * The endpoints of `model` the client allows, or null when the preferences leave them all
 * allowed or name a provider Warden cannot match to a listed endpoint (then it cannot tell,
 * and leaves the decision to the aggregator, as before).
 */
export function clientAllowedEndpoints(model: CatalogModel, prefs: ProviderPreferences): ReadonlySet<string> | null {
  const routes = model.routes.filter((r) => r.endpoint !== null);
  if (routes.length === 0) return null;
  let allowed: Route[] | null = null;
  for (const list of [prefs.only, prefs.allow_fallbacks === false ? prefs.order : null]) {
    if (!nonEmpty(list)) continue;
    const keys = list.map(key);
    if (!keys.every((k) => routes.some((r) => names(r, k)))) return null;
    allowed = (allowed ?? routes).filter((r) => keys.some((k) => names(r, k)));
  }
  const ignore = nonEmpty(prefs.ignore) ? prefs.ignore.map(key) : [];
  if (allowed === null && ignore.length === 0) return null;
  return new Set((allowed ?? routes).filter((r) => !ignore.some((k) => names(r, k))).map((r) => r.endpoint!));
}

function nonEmpty(list: readonly string[] | null | undefined): list is readonly string[] {
  return Array.isArray(list) && list.length > 0;
}

function key(name: string): string {
  return name.trim().toLowerCase();
}

/** Whether `k` (lowercase) names the route's endpoint: its name, its name as a slug, its provider's slug, or its tag. */
function names(route: Route, k: string): boolean {
  const tag = route.info?.tag ?? null;
  return entryNamesProvider(k, route.endpoint!, providerSlug(tag) ?? route.endpoint!) || (tag !== null && k === tag.toLowerCase());
}

/**
 * For a request that names one endpoint in its model id: whether the client's own preferences
 * exclude that endpoint. A pin replaces only/ignore upstream, so sending it would break them.
 */
export function pinExcludedByClient(model: CatalogModel, endpoint: string, prefs: ProviderPreferences): boolean {
  const allowed = clientAllowedEndpoints(model, prefs);
  if (allowed === null) return false;
  const pinned = key(endpoint);
  const listed = model.routes.find((r) => r.endpoint !== null && r.endpoint.toLowerCase() === pinned);
  return listed !== undefined && !allowed.has(listed.endpoint!);
}
