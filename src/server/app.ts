// The HTTP edge on plain node:http: FINDINGS measured a framework's routing and hooks at
// about 0.7x the throughput of the bare server, and this surface is a handful of paths.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Secret } from '../config/index.js';
import { GatewayError, isGatewayError, methodNotAllowed, notFound, unauthorized } from '../protocol/errors.js';
import { handleAdmin, type AdminDeps } from './admin.js';
import { handleChat, type ChatDeps } from './chat.js';
import { sendError, sendJson, sendRaw } from './respond.js';

export interface AppDeps extends ChatDeps {
  admin: AdminDeps;
  clientKeys: readonly Secret[];
  /** Body of GET /v1/models, prepared at start. */
  modelList: () => unknown;
  readiness: () => { ready: boolean; checks: Array<{ name: string; ok: boolean; detail?: string }> };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createApp(deps: AppDeps): Server {
  const server = createServer((req, res) => {
    const startedAt = performance.now();
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && REQUEST_ID.test(incomingId) ? incomingId : randomUUID();
    route(req, res, requestId, startedAt, deps).catch((e: unknown) => fail(res, e, requestId, deps));
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

async function route(req: IncomingMessage, res: ServerResponse, requestId: string, startedAt: number, deps: AppDeps): Promise<void> {
  const url = req.url ?? '/';
  const path = url.indexOf('?') === -1 ? url : url.slice(0, url.indexOf('?'));
  switch (path) {
    case '/v1/chat/completions':
    case '/chat/completions':
      if (req.method !== 'POST') throw methodNotAllowed(req.method ?? '', path);
      authorize(req, deps.clientKeys);
      return handleChat(req, res, requestId, startedAt, deps);
    case '/v1/models':
    case '/models':
      authorize(req, deps.clientKeys);
      return sendJson(res, 200, deps.modelList());
    case '/healthz':
      return sendJson(res, 200, { status: 'ok' });
    case '/readyz': {
      const readiness = deps.readiness();
      return sendJson(res, readiness.ready ? 200 : 503, readiness);
    }
    case '/metrics':
      return sendRaw(res, 200, await deps.metrics.text(), { 'content-type': deps.metrics.contentType });
    default:
      if (path.startsWith('/admin/')) return handleAdmin(req, res, path, new URLSearchParams(url.slice(path.length + 1)), deps.admin);
      throw notFound(path);
  }
}

function authorize(req: IncomingMessage, keys: readonly Secret[]): void {
  if (keys.length === 0) return;
  const header = req.headers.authorization;
  if (!header) throw unauthorized('Missing API key: send "Authorization: Bearer <client key>"');
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!keys.some((k) => k.equals(token))) throw unauthorized('Incorrect API key provided');
}

function fail(res: ServerResponse, e: unknown, requestId: string, deps: AppDeps): void {
  const error = isGatewayError(e) ? e : new GatewayError(500, 'internal_error', 'api_error', 'Warden failed to handle this request; see the gateway log');
  if (!isGatewayError(e)) deps.log.error({ requestId, err: e }, 'unhandled error');
  deps.metrics.recordRejected(error.code);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendError(res, error, { 'x-request-id': requestId });
}
