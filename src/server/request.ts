// The chat request at the boundary: parse once, check the few fields Warden relies on, and
// leave every other field exactly as the client sent it.
import { isPlainObject, parseJsonObject } from '../protocol/body.js';
import { invalidRequest } from '../protocol/errors.js';
import type { ChatRequest } from '../protocol/types.js';

export function parseChatRequest(raw: Buffer): ChatRequest {
  const request = parseJsonObject(raw);
  if (typeof request.model !== 'string' || request.model === '') throw invalidRequest('"model" is required and must be a string naming a role or a model', 'model');
  if (!Array.isArray(request.messages) || request.messages.length === 0) throw invalidRequest('"messages" is required and must be a non-empty array', 'messages');
  for (let i = 0; i < request.messages.length; i++) {
    const m = request.messages[i] as { role?: unknown } | null;
    if (m === null || typeof m !== 'object' || typeof m.role !== 'string') throw invalidRequest(`messages[${i}] must be an object with a "role"`, `messages[${i}]`);
    checkContent((m as { content?: unknown }).content, i);
  }
  if (request.stream !== undefined && typeof request.stream !== 'boolean') throw invalidRequest('"stream" must be a boolean', 'stream');
  if (request.provider !== undefined) checkProviderPreferences(request.provider);
  // Escalation counts the tools; a thinking-on attempt spreads `reasoning` into its own switch.
  if (request.tools != null && !Array.isArray(request.tools)) throw invalidRequest('"tools" must be an array of tool definitions', 'tools');
  if (request.reasoning != null && !isPlainObject(request.reasoning)) throw invalidRequest('"reasoning" must be an object of reasoning settings such as {"effort": "high"}', 'reasoning');
  return request as unknown as ChatRequest;
}

/**
 * A message's content as the language check and escalation read it: text, a list of content
 * parts (objects), or none at all (an assistant's tool call). A null part crashed the reading.
 */
function checkContent(content: unknown, i: number): void {
  if (content === undefined || content === null || typeof content === 'string') return;
  const where = `messages[${i}].content`;
  if (!Array.isArray(content)) throw invalidRequest(`${where} must be a string or an array of content parts`, where);
  for (let j = 0; j < content.length; j++) {
    if (!isPlainObject(content[j])) throw invalidRequest(`${where}[${j}] must be a content part object such as {"type": "text", "text": "…"}`, `${where}[${j}]`);
  }
}

/**
 * The OpenRouter preferences Warden reads or merges into; the rest pass through unread. Null
 * stands for absent, as OpenRouter takes it (SDKs serialise an unset field so).
 */
function checkProviderPreferences(provider: unknown): void {
  if (!isPlainObject(provider)) {
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
