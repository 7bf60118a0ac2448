// Answers Warden writes itself: a role's configured default or degrade message, shaped
// as a normal completion (or stream) so the client's code path does not change.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { SSE_DONE, sseData } from '../protocol/sse.js';
import { sendJson } from './respond.js';

export function sendSyntheticAnswer(res: ServerResponse, content: string, model: string, stream: boolean, requestId: string, headers: OutgoingHttpHeaders): void {
  const id = `warden-${requestId}`;
  const created = Math.floor(Date.now() / 1000);
  if (!stream) {
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    }, headers);
    return;
  }
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers });
  const chunk = (delta: object, finish: string | null) => sseData({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  res.end(chunk({ role: 'assistant', content }, null) + chunk({}, 'stop') + SSE_DONE);
}
