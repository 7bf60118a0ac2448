// Helpers for the fleet tests: start a fleet from an inline scenario, post chat requests,
// read SSE streams into parsed events. No sleeps: tests synchronise with fleet.waitFor.
import type { TestContext } from 'node:test';
import type { ChatCompletion, ChatCompletionChunk } from '../../src/protocol/types.js';
import { parseScenario, startFleet, type Fleet } from '../../src/sim/index.js';

export const MODEL = 'deepseek/deepseek-chat';

export const BASE_SCENARIO = {
  seed: 42,
  models: { [MODEL]: { name: 'DeepSeek Chat', contextLength: 64000 } },
  providers: {
    Alpha: { models: [MODEL], quantization: 'fp8', price: { input: 0.3, output: 1.2 } },
    Beta: { models: [MODEL] },
    Gamma: { models: [MODEL] },
    small: { models: ['gpt-4o-mini'], apiKey: 'sk-small' },
  },
};

export async function fleetFor(t: TestContext, scenario: unknown = BASE_SCENARIO): Promise<Fleet> {
  const fleet = await startFleet({ scenario: parseScenario(scenario), port: 0 });
  t.after(() => fleet.close());
  return fleet;
}

export const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  model: MODEL,
  messages: [{ role: 'user', content: text }],
  ...extra,
});

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json<T = ChatCompletion>(): T;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
}

export interface Streamed {
  status: number;
  /** Parsed `data:` events, `[DONE]` as the string. */
  events: Array<ChatCompletionChunk | '[DONE]'>;
  /** `data:` payloads that were not JSON. */
  invalid: string[];
  comments: string[];
  /** True when the body ended abnormally (socket destroyed). */
  broken: boolean;
}

export async function postStream(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Streamed> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  // Read chunk by chunk so that what arrived before a broken connection is kept.
  let raw = '';
  let broken = false;
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body ?? []) raw += decoder.decode(chunk as Uint8Array, { stream: true });
  } catch {
    broken = true;
  }
  const streamed: Streamed = { status: res.status, events: [], invalid: [], comments: [], broken };
  for (const block of raw.split('\n\n')) {
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) streamed.comments.push(line);
      if (!line.startsWith('data: ')) continue;
      const data = line.slice(6);
      if (data === '[DONE]') streamed.events.push('[DONE]');
      else {
        try {
          streamed.events.push(JSON.parse(data) as ChatCompletionChunk);
        } catch {
          streamed.invalid.push(data);
        }
      }
    }
  }
  return streamed;
}

export function chunks(streamed: Streamed): ChatCompletionChunk[] {
  return streamed.events.filter((e): e is ChatCompletionChunk => e !== '[DONE]');
}

export function streamedText(streamed: Streamed): string {
  return chunks(streamed)
    .map((c) => c.choices[0]?.delta.content ?? '')
    .join('');
}

export function contentOf(answer: Answer): string {
  return answer.json().choices[0]?.message.content ?? '';
}
