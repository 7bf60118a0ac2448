// Requests node:http refuses before Warden sees them (headers over its 16 KB limit, a
// malformed request line, a request that took too long to arrive). Node's own answer is a
// bare status line with no body; clients of an OpenAI-compatible API expect the error shape
// every other refusal has.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { openAIErrorBody } from '../protocol/errors.js';

interface ParserError extends Error {
  code?: string;
}

const REFUSALS: Record<string, { status: number; reason: string; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', code: 'headers_too_large', message: 'request headers are larger than the server accepts (16 KB in all)' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', code: 'request_timeout', message: 'the request did not arrive in time' },
};
const MALFORMED = { status: 400, reason: 'Bad Request', code: 'malformed_http', message: 'the request is not valid HTTP/1.1' };

/** Answers node:http's client errors with an OpenAI-shaped body, then closes the connection. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: ParserError, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
    // A connection reset or an answer already under way: nothing can be said on it.
    if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify(openAIErrorBody(refusal.message, 'invalid_request_error', refusal.code));
    socket.end(`HTTP/1.1 ${refusal.status} ${refusal.reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
}
