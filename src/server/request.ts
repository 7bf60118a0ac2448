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
  if (request.provider !== undefined && (request.provider === null || typeof request.provider !== 'object' || Array.isArray(request.provider))) {
    throw invalidRequest('"provider" must be an object of routing preferences', 'provider');
  }
  return request as unknown as ChatRequest;
}
