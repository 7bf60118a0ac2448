// OpenAI wire format for simulated replies: one non-streaming body, or the SSE lines of a
// stream. Stream lines are built from pre-serialised parts because at benchmark rates the
// per-chunk cost matters more than the per-request one.
import type { ChatCompletion, ChatCompletionChunk, Usage } from '../protocol/types.js';
import type { Reply } from './reply.js';

export interface Envelope {
  id: string;
  created: number;
  model: string;
  /** OpenRouter names the provider that answered; direct providers do not. */
  provider?: string;
}

/** Every choice's tokens count as completion tokens, as OpenAI bills `n` > 1. */
export function usageOf(promptTokens: number, replies: readonly Reply[]): Usage {
  let completion = 0;
  for (const reply of replies) completion += reply.pieces.length;
  return { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion };
}

/** What a reasoning provider thinks aloud before answering. */
export const REASONING_TEXT = 'Let me think about what the user is asking for before I answer.';

/** A non-streamed completion: `reply` is choice 0, `moreChoices` the rest of the request's `n`. */
export function completionBody(envelope: Envelope, reply: Reply, usage: Usage | null, reasoning = false, moreChoices: readonly Reply[] = []): string {
  const choices = [choiceOf(reply, 0, reasoning)];
  for (let i = 0; i < moreChoices.length; i++) choices.push(choiceOf(moreChoices[i] as Reply, i + 1, reasoning));
  const body: ChatCompletion = {
    id: envelope.id,
    object: 'chat.completion',
    created: envelope.created,
    model: envelope.model,
    ...(envelope.provider !== undefined ? { provider: envelope.provider } : {}),
    choices,
    ...(usage !== null ? { usage } : {}),
  };
  return JSON.stringify(body);
}

function choiceOf(reply: Reply, index: number, reasoning: boolean): ChatCompletion['choices'][number] {
  const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: reply.content };
  if (reasoning) message.reasoning_content = REASONING_TEXT;
  if (reply.toolCall) {
    const { id, name, arguments: args } = reply.toolCall;
    message.tool_calls = [{ id, type: 'function', function: { name, arguments: args } }];
  }
  return { index, message, finish_reason: reply.finishReason, logprobs: null };
}

/** Writes the SSE lines of one stream; each method returns one `data:` event. */
export class ChunkWriter {
  readonly #head: string;
  /** The stream's whole usage when every chunk carries the usage so far (scenario `usage: running`). */
  readonly #running: Usage | null;

  constructor(envelope: Envelope, running: Usage | null = null) {
    this.#running = running;
    const provider = envelope.provider !== undefined ? `,"provider":${JSON.stringify(envelope.provider)}` : '';
    this.#head = `data: {"id":${JSON.stringify(envelope.id)},"object":"chat.completion.chunk","created":${envelope.created},"model":${JSON.stringify(envelope.model)}${provider},`;
  }

  /**
   * One choice's delta; `index` names the choice among a request's `n`, each event carrying one.
   * `tokens`: completion tokens sent with this chunk, for running usage.
   */
  #choice(delta: string, finishReason: string | null, index: number, tokens = 0): string {
    const reason = finishReason === null ? 'null' : `"${finishReason}"`;
    return `${this.#head}"choices":[{"index":${index},"delta":${delta},"finish_reason":${reason},"logprobs":null}]${this.#runningUsage(tokens)}}\n\n`;
  }

  #runningUsage(tokens: number): string {
    const usage = this.#running;
    if (usage === null) return '';
    const completion = Math.min(tokens, usage.completion_tokens);
    return `,"usage":${JSON.stringify({ prompt_tokens: usage.prompt_tokens, completion_tokens: completion, total_tokens: usage.prompt_tokens + completion })}`;
  }

  role(reply: Reply, index = 0): string {
    return this.#choice(reply.toolCall ? '{"role":"assistant","content":null}' : '{"role":"assistant","content":""}', null, index);
  }

  /** The i-th piece: content text, or for a tool call its argument fragment (the first names the call). */
  piece(reply: Reply, i: number, index = 0): string {
    const text = JSON.stringify(reply.pieces[i] ?? '');
    const call = reply.toolCall;
    if (!call) return this.#choice(`{"content":${text}}`, null, index, i + 1);
    const opening = i === 0 ? `"id":${JSON.stringify(call.id)},"type":"function",` : '';
    const name = i === 0 ? `"name":${JSON.stringify(call.name)},` : '';
    return this.#choice(`{"tool_calls":[{"index":0,${opening}"function":{${name}"arguments":${text}}}]}`, null, index, i + 1);
  }

  reasoning(index = 0): string {
    return this.#choice(`{"reasoning_content":${JSON.stringify(REASONING_TEXT)}}`, null, index);
  }

  finish(reply: Reply, index = 0): string {
    return this.#choice('{}', reply.finishReason, index, Infinity);
  }

  usage(usage: Usage): string {
    return `${this.#head}"choices":[],"usage":${JSON.stringify(usage)}}\n\n`;
  }

  /** OpenRouter's mid-stream failure: an error object and finish_reason "error", then [DONE]. */
  streamError(message = 'Provider returned error'): string {
    const chunk: Partial<ChatCompletionChunk> = {
      error: { code: 502, message },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
    };
    return `${this.#head}${JSON.stringify(chunk).slice(1)}\n\n`;
  }
}

export const DONE = 'data: [DONE]\n\n';
export const PROCESSING = ': OPENROUTER PROCESSING\n\n';
