// Reading a chat request: is it well-formed, and what does it ask of the reply (language,
// seed or message hash, length limit, format, forced tool).
import type { ChatMessage, ChatRequest } from '../protocol/types.js';
import type { FaultName } from './faults.js';
import { lastUserText, messageText } from '../protocol/messages.js';
import { replyLanguage } from './language.js';
import type { SimProvider } from './provider.js';
import type { ReplyInput } from './reply.js';
import { hash } from './rng.js';

/** A usable request, or what is wrong with the body and which field (OpenAI's `param`). */
export type Checked = { ok: true; request: ChatRequest } | { ok: false; problem: string; param: string | null };

export function validateChatRequest(body: unknown): Checked {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, problem: 'The request body must be a JSON object.', param: null };
  }
  const request = body as ChatRequest;
  if (typeof request.model !== 'string' || request.model === '') {
    return { ok: false, problem: "'model' is required and must be a non-empty string.", param: 'model' };
  }
  if (!Array.isArray(request.messages) || request.messages.length === 0) {
    return { ok: false, problem: "'messages' is required and must be a non-empty array.", param: 'messages' };
  }
  if (!request.messages.every((m) => m !== null && typeof m === 'object' && typeof m.role === 'string')) {
    return { ok: false, problem: "'messages' must hold objects with a string 'role'.", param: 'messages' };
  }
  for (const field of ['max_tokens', 'max_completion_tokens'] as const) {
    const value = request[field];
    if (value !== undefined && value !== null && !(Number.isInteger(value) && (value as number) > 0)) {
      return { ok: false, problem: `'${field}' must be a positive integer.`, param: field };
    }
  }
  if (request.n !== undefined && request.n !== null && !(Number.isInteger(request.n) && (request.n as number) > 0 && (request.n as number) <= MAX_CHOICES)) {
    return { ok: false, problem: `'n' must be an integer from 1 to ${MAX_CHOICES}.`, param: 'n' };
  }
  return { ok: true, request };
}

/** OpenAI's bound on `n`. */
const MAX_CHOICES = 128;

/** How many choices the request asks for (`n`, validated above); 1 when it does not say. */
export function choiceCount(request: ChatRequest): number {
  return typeof request.n === 'number' ? request.n : 1;
}

export function replyInput(seed: number, provider: SimProvider, request: ChatRequest, fault: FaultName | null): ReplyInput {
  const messages = request.messages;
  const prompt = lastUserText(messages);
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  return {
    scenarioSeed: seed,
    provider: provider.name,
    model: request.model,
    key: typeof request.seed === 'number' ? `seed:${request.seed}` : `messages:${messagesHash(messages)}`,
    language: replyLanguage(messages),
    prompt,
    fault,
    replyTokens: provider.spec.replyTokens,
    maxTokens: typeof maxTokens === 'number' && maxTokens > 0 ? Math.floor(maxTokens) : undefined,
    responseFormat: request.response_format,
    tool: forcedTool(request),
  };
}

/** The tool a request makes the model call: `tool_choice` "required" (first tool) or named. */
function forcedTool(request: ChatRequest): ReplyInput['tool'] {
  if (!Array.isArray(request.tools) || request.tools.length === 0) return undefined;
  const choice = request.tool_choice;
  const wanted =
    choice === 'required' ? undefined : (choice as { function?: { name?: unknown } } | undefined)?.function?.name;
  if (choice !== 'required' && typeof wanted !== 'string') return undefined;
  const functions = request.tools.map((t) => (t as { function?: { name?: unknown; parameters?: unknown } } | null)?.function);
  const fn = functions.find((f) => wanted === undefined || f?.name === wanted) ?? functions[0];
  if (typeof fn?.name !== 'string') return undefined;
  return { name: fn.name, parameters: fn.parameters };
}

function messagesHash(messages: readonly ChatMessage[]): number {
  const parts: string[] = [];
  for (const m of messages) parts.push(m.role, messageText(m));
  return hash(...parts);
}

export function promptTokensOf(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) chars += messageText(m).length + 4;
  return Math.ceil(chars / 4);
}
