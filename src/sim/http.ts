// Small node:http helpers for the fleet: read a JSON body, answer JSON, answer an OpenAI error.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../protocol/body.js';
import { isGatewayError, openAIErrorBody, type OpenAIErrorType } from '../protocol/errors.js';

const BODY_LIMIT = 4 * 1024 * 1024;

/** The request's JSON body, or undefined after answering the client with what was wrong. */
export async function readJson(req: IncomingMessage, res: ServerResponse): Promise<{ value: unknown } | undefined> {
  let raw: Buffer;
  try {
    raw = await readBody(req, BODY_LIMIT);
  } catch (e) {
    const error = isGatewayError(e) ? e : null;
    sendError(res, error?.status ?? 400, (e as Error).message, 'invalid_request_error', error?.code ?? 'invalid_request');
    return undefined;
  }
  try {
    return { value: JSON.parse(raw.toString('utf8')) };
  } catch (e) {
    sendError(res, 400, `Request body is not valid JSON: ${(e as Error).message}`, 'invalid_request_error', 'invalid_json');
    return undefined;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: OpenAIErrorType,
  code: string | null = null,
  param: string | null = null,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, openAIErrorBody(message, type, code, param), headers);
}
