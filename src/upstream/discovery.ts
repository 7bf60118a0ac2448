// OpenRouter's endpoint listing (GET /models/{author}/{slug}/endpoints): which provider
// endpoints serve a model right now. Each becomes a route Warden can pin, probe and shed.
import { request, type Dispatcher } from 'undici';
import type { EndpointInfo } from './adapter.js';
import { providerSlug } from './endpoint-names.js';
import { fromUndiciError, invalidResponse, UpstreamFailure } from './errors.js';

export interface DiscoveryRequest {
  dispatcher: Dispatcher;
  baseUrl: string;
  headers: Record<string, string>;
  model: string;
  timeoutMs: number;
}

export async function listEndpoints(req: DiscoveryRequest): Promise<EndpointInfo[]> {
  const url = `${req.baseUrl.replace(/\/$/, '')}/models/${req.model.split('/').map(encodeURIComponent).join('/')}/endpoints`;
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, { dispatcher: req.dispatcher, headers: req.headers, headersTimeout: req.timeoutMs, bodyTimeout: req.timeoutMs });
  } catch (e) {
    throw fromUndiciError(e as Error);
  }
  const text = await response.body.text();
  if (response.statusCode !== 200) {
    throw new UpstreamFailure('invalid_response', 'discovery_failed', `endpoint listing for ${req.model} answered ${response.statusCode}`);
  }
  return parseEndpointListing(text);
}

/** Pure: the listing's JSON to endpoint infos; anything unusable is a named failure. */
export function parseEndpointListing(text: string): EndpointInfo[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidResponse('endpoint listing is not JSON');
  }
  const endpoints = (parsed as { data?: { endpoints?: unknown } })?.data?.endpoints;
  if (!Array.isArray(endpoints)) throw invalidResponse('endpoint listing has no data.endpoints array');
  const out: EndpointInfo[] = [];
  for (const raw of endpoints as Array<Record<string, unknown>>) {
    const name = typeof raw?.provider_name === 'string' ? raw.provider_name : null;
    if (!name) continue;
    // One provider can list several endpoints of a model ("deepinfra/fp8", "deepinfra/turbo"),
    // but answers name only the provider, and Warden pins and ignores the provider: they are
    // one route, the provider's, and its tag is the provider slug that names them all.
    const same = out.findIndex((e) => e.name.toLowerCase() === name.toLowerCase());
    if (same !== -1) {
      const first = out[same]!;
      const tag = typeof raw.tag === 'string' ? raw.tag : null;
      out[same] = { ...first, tag: providerSlug(first.tag) ?? providerSlug(tag), quantization: first.quantization === raw.quantization ? first.quantization : null };
      continue;
    }
    const pricing = raw.pricing as { prompt?: string; completion?: string } | undefined;
    out.push({
      name,
      tag: typeof raw.tag === 'string' ? raw.tag : null,
      quantization: typeof raw.quantization === 'string' ? raw.quantization : null,
      pricing: pricing ? { prompt: Number(pricing.prompt ?? 0) * 1e6, completion: Number(pricing.completion ?? 0) * 1e6 } : null,
      contextLength: typeof raw.context_length === 'number' ? raw.context_length : null,
    });
  }
  return out;
}

