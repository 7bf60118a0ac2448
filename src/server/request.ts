// The chat request at the boundary: parse once, check the few fields Warden relies on, and
// leave every other field exactly as the client sent it.
import { parseJsonObject } from '../protocol/body.js';
import { invalidRequest } from '../protocol/errors.js';
import type { ChatRequest } from '../protocol/types.js';

export function parseChatRequest(raw: Buffer): ChatRequest {
  const request = parseJsonObject(raw);
  if (typeof request.model !== 'string' || request.model === '') throw invalidRequest('"model" is required and must be a string naming a role or a model', 'model');
  if (!Array.isArray(request.messages) || request.messages.length === 0) throw invalidRequest('"messages" is required and must be a non-empty array', 'messages');
  for (let i = 0; i < request.messages.length; i++) {
    const m = request.messages[i] as { role?: unknown } | null;
    if (m === null || typeof m !== 'object' || typeof m.role !== 'string') throw invalidRequest(`messages[${i}] must be an object with a "role"`, `messages[${i}]`);
  }
  if (request.stream !== undefined && typeof request.stream !== 'boolean') throw invalidRequest('"stream" must be a boolean', 'stream');
  if (request.provider !== undefined) checkProviderPreferences(request.provider);
  return request as unknown as ChatRequest;
}

/**
 * The OpenRouter preferences Warden reads or merges into; the rest pass through unread. Null
 * stands for absent, as OpenRouter takes it (SDKs serialise an unset field so).
 */
function checkProviderPreferences(provider: unknown): void {
  if (provider === null || typeof provider !== 'object' || Array.isArray(provider)) {
    throw invalidRequest('"provider" must be an object of routing preferences', 'provider');
  }
  const prefs = provider as Record<string, unknown>;
  for (const field of NAME_LISTS) {
    const value = prefs[field];
    if (value != null && !isNameList(value)) throw invalidRequest(`"provider.${field}" must be an array of provider names (strings)`, `provider.${field}`);
  }
  if (prefs.allow_fallbacks != null && typeof prefs.allow_fallbacks !== 'boolean') {
    throw invalidRequest('"provider.allow_fallbacks" must be a boolean', 'provider.allow_fallbacks');
  }
}

const NAME_LISTS = ['order', 'only', 'ignore'] as const;

function isNameList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const name of value) if (typeof name !== 'string') return false;
  return true;
}
