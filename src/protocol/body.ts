// Reads a request body up to a size limit: a declared length over the limit is refused
// before reading, a chunked body as soon as it crosses the limit.
import type { IncomingMessage } from 'node:http';
import { bodyTooLarge, GatewayError, invalidJson, invalidRequest } from './errors.js';

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    req.resume();
    return Promise.reject(bodyTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(bodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', (e) => reject(new GatewayError(400, 'request_aborted', 'invalid_request_error', `request body could not be read: ${e.message}`)));
    // A body cut off by the client ends in 'error' (ECONNRESET) or never ends; the response's
    // close handler has nothing to answer then.
  });
}

/** A body that must be one JSON object (a chat request, an admin call). */
export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw invalidJson((e as Error).message);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('request body must be a JSON object');
  return body as Record<string, unknown>;
}
