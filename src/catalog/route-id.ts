// Route ids are part of the external contract: `<model>@<provider>` for a direct route,
// `<model>@<provider>/<endpoint>` for one endpoint of an aggregator (chat-main@openrouter/DeepInfra).

export interface RouteIdParts {
  model: string;
  provider: string;
  endpoint: string | null;
}

export function formatRouteId(parts: RouteIdParts): string {
  return parts.endpoint === null ? `${parts.model}@${parts.provider}` : `${parts.model}@${parts.provider}/${parts.endpoint}`;
}

export function parseRouteId(id: string): RouteIdParts | null {
  const at = id.indexOf('@');
  if (at <= 0) return null;
  const rest = id.slice(at + 1);
  const slash = rest.indexOf('/');
  const provider = slash === -1 ? rest : rest.slice(0, slash);
  const endpoint = slash === -1 ? null : rest.slice(slash + 1);
  if (!provider || endpoint === '') return null;
  return { model: id.slice(0, at), provider, endpoint };
}
