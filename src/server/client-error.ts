// Requests node:http refuses before Warden sees them (headers over its 16 KB limit, a
// malformed request line, a request that took too long to arrive, an Expect it cannot meet,
// an HTTP/1.1 request without Host). Node's own answer is a bare status line with no body;
// clients of an OpenAI-compatible API expect the error shape every other refusal has.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayError, openAIErrorBody } from '../protocol/errors.js';
import { sendError } from './respond.js';

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

/**
 * An HTTP/1.1 request without a Host header: RFC 9112 (3.2) says a server must answer it 400,
 * which node:http does with a bare status line; the server is made with requireHostHeader off
 * so this answer, with a body, is Warden's. The connection closes: its framing is in doubt.
 */
export const missingHost = () =>
  new GatewayError(400, 'missing_host_header', 'invalid_request_error', 'HTTP/1.1 requests must carry a Host header', null, { connection: 'close' });

/** Expect values are short tokens; a longer one is cut before it is quoted back. */
const EXPECT_SHOWN = 64;

/**
 * Answers a request whose Expect header is not 100-continue (node:http meets only that one)
 * with an OpenAI-shaped 417 instead of node's bare one. `Expect: 100-continue` is left to
 * node, which sends 100 Continue and hands the request on.
 */
export function answerUnmetExpectations(server: Server): void {
  server.on('checkExpectation', (req, res) => {
    const expect = String(req.headers.expect ?? '').slice(0, EXPECT_SHOWN);
    const error = new GatewayError(417, 'expectation_failed', 'invalid_request_error', `The Expect header ${JSON.stringify(expect)} cannot be met: only "100-continue" is supported`, null, { connection: 'close' });
    sendError(res, error);
  });
}
