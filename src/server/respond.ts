// Writing answers: JSON bodies, OpenAI-shaped errors, and the x-warden-* headers that tell a
// client which role and route produced an answer.
import type { ServerResponse, OutgoingHttpHeaders } from 'node:http';
import { GatewayError } from '../protocol/errors.js';

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
