// Writing answers: JSON bodies, OpenAI-shaped errors, and the x-warden-* headers that tell a
// client which role and route produced an answer.
import type { ServerResponse, OutgoingHttpHeaders } from 'node:http';
import { GatewayError } from '../protocol/errors.js';
import { sseData } from '../protocol/sse.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  sendRaw(res, status, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
}

export function sendRaw(res: ServerResponse, status: number, body: string | Buffer, headers: OutgoingHttpHeaders): void {
  if (res.headersSent || res.destroyed) return;
  headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  res.writeHead(status, headers);
  res.end(body);
}

export function sendError(res: ServerResponse, error: GatewayError, headers: OutgoingHttpHeaders = {}): void {
  sendJson(res, error.status, error.toBody(), { ...headers, ...error.headers });
}

/**
 * Ends an answer with `error` however far it got: its status and body when nothing was sent,
 * an SSE error event on a stream under way, else a closed connection — which is also what a
 * write that throws gets.
 */
export function endWithError(res: ServerResponse, error: GatewayError, stream: boolean, headers: OutgoingHttpHeaders = {}): void {
  try {
    if (!res.headersSent) sendError(res, error, headers);
    else if (!res.writableEnded && stream) res.end(sseData(error.toBody()));
    else if (!res.writableEnded) res.destroy();
  } catch {
    res.destroy();
  }
}
