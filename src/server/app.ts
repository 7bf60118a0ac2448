// The HTTP edge on plain node:http: FINDINGS measured a framework's routing and hooks at
// about 0.7x the throughput of the bare server, and this surface is a handful of paths.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Secret } from '../config/index.js';
import { PAGE_HEADERS, type DashboardAssets } from '../dashboard/index.js';
import { GatewayError, internalError, isGatewayError, methodNotAllowed, notFound, unauthorized } from '../protocol/errors.js';
import { bearerToken } from './bearer.js';
import type { Credentials } from './credentials.js';
import { handleAdmin, type AdminDeps } from './admin.js';
import { handleChat, type ChatDeps } from './chat.js';
import { answerClientErrors, answerUnmetExpectations, missingHost } from './client-error.js';
import type { OpenRequests } from './open-requests.js';
import { RequestIds } from './request-id.js';
import { sendError, sendJson, sendRaw } from './respond.js';

export interface AppDeps extends ChatDeps {
  admin: AdminDeps;
  /** Client keys, read on each request (a reload may rotate them); the admin API reads its tokens from the same object. */
  credentials: Credentials;
  /** Body of GET /v1/models, prepared at start. */
  modelList: () => unknown;
  readiness: () => { ready: boolean; checks: Array<{ name: string; ok: boolean; detail?: string }> };
  /** The dashboard's page files; null when they could not be read (the page answers 503). */
  dashboardAssets?: DashboardAssets | null;
  /** Every request in flight, for the shutdown's drain. */
  requests: OpenRequests;
  /** How long a whole request, and its headers, may take to arrive (server.requestTimeout, server.headersTimeout). */
  receiveTimeouts: { requestMs: number; headersMs: number };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createApp(deps: AppDeps): Server {
  const ids = new RequestIds();
  const { requestMs, headersMs } = deps.receiveTimeouts;
  const options = { requestTimeout: requestMs, headersTimeout: headersMs, connectionsCheckingInterval: checkingInterval(headersMs), requireHostHeader: false };
  const server = createServer(options, (req, res) => {
    const startedAt = performance.now();
    const headers = req.headers;
    const incomingId = headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && REQUEST_ID.test(incomingId) ? incomingId : ids.next();
    const path = pathOf(req.url ?? '/');
    const onError = (e: unknown) => fail(path, res, e, requestId, startedAt, deps);
    deps.requests.track(res, onError);
    if (headers.host === undefined && req.httpVersionMinor === 1 && req.httpVersionMajor === 1) return onError(missingHost());
    // The chat path outside the async router: no promise of its own until the execution's.
    if (isChatPath(path)) {
      try {
        if (req.method !== 'POST') throw methodNotAllowed(req.method ?? '', path);
        authorize(req, deps.credentials.clientKeys);
        handleChat(req, res, requestId, startedAt, deps, onError, (execution) => deps.requests.cutWith(res, (error) => execution.stop(error)));
      } catch (e) {
        onError(e);
      }
      return;
    }
    route(req, res, path, requestId, deps).catch(onError);
  });
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  answerUnmetExpectations(server);
  return server;
}

/**
 * How often node:http looks for requests past their deadline. Its default, 30 s, would let a
 * 60 s limit run to 90 s; a fraction of the headers' limit, at most a second, notices in time.
 * Each look walks the open connections' list, so it is not made more often than every 50 ms.
 */
function checkingInterval(headersMs: number): number {
  return Math.max(50, Math.min(1_000, Math.floor(headersMs / 4)));
}

/** Every path but chat's. Chat answers carry the id among their own headers; these get it here. */
async function route(req: IncomingMessage, res: ServerResponse, path: string, requestId: string, deps: AppDeps): Promise<void> {
  const url = req.url ?? '/';
  res.setHeader('x-request-id', requestId);
  switch (path) {
    case '/v1/models':
    case '/models':
      authorize(req, deps.credentials.clientKeys);
      return sendJson(res, 200, deps.modelList());
    case '/healthz':
      return sendJson(res, 200, { status: 'ok' });
    case '/readyz': {
      const readiness = deps.readiness();
      if (deps.requests.draining) return sendJson(res, 503, { ...readiness, ready: false, shuttingDown: true });
      return sendJson(res, readiness.ready ? 200 : 503, readiness);
    }
    case '/metrics':
      return sendRaw(res, 200, await deps.metrics.text(), { 'content-type': deps.metrics.contentType });
    default:
      if (path === '/dashboard' || path.startsWith('/dashboard/')) return serveDashboard(req, res, path, deps.dashboardAssets ?? null);
      if (path.startsWith('/admin/')) return handleAdmin(req, res, path, new URLSearchParams(url.slice(path.length + 1)), deps.admin);
      throw notFound(path);
  }
}

/** The dashboard's page files. They need no token: the page asks for the admin token and sends it to /admin itself. */
function serveDashboard(req: IncomingMessage, res: ServerResponse, path: string, assets: DashboardAssets | null): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req.method ?? '', path);
  if (path === '/dashboard/') {
    // Relative, so the page also works behind a reverse proxy that mounts Warden under a prefix.
    res.writeHead(308, { location: '../dashboard', 'content-length': 0 });
    return void res.end();
  }
  if (!assets) throw new GatewayError(503, 'dashboard_unavailable', 'service_unavailable', 'The dashboard page files were not found; see the gateway log');
  const asset = assets.get(path);
  if (!asset) throw notFound(path);
  sendRaw(res, 200, asset.body, { 'content-type': asset.contentType, ...PAGE_HEADERS });
}

function authorize(req: IncomingMessage, keys: readonly Secret[]): void {
  if (keys.length === 0) return;
  const header = req.headers.authorization;
  if (!header) throw unauthorized('Missing API key: send "Authorization: Bearer <client key>"');
  const token = bearerToken(header);
  if (token === '' || !keys.some((k) => k.equals(token))) throw unauthorized('Incorrect API key provided');
}

const pathOf = (url: string) => (url.indexOf('?') === -1 ? url : url.slice(0, url.indexOf('?')));
const isChatPath = (path: string) => path === '/v1/chat/completions' || path === '/chat/completions';

function fail(path: string, res: ServerResponse, e: unknown, requestId: string, startedAt: number, deps: AppDeps): void {
  const error = isGatewayError(e) ? e : internalError();
  if (!isGatewayError(e)) deps.log.error({ requestId, err: e }, 'unhandled error');
  // A chat request refused before its execution (auth, body, unknown model) is counted and
  // still gets its line; the admin API's and the page's refusals are not chat traffic.
  if (isChatPath(path)) {
    deps.metrics.recordRejected(error.code);
    const status = res.headersSent ? res.statusCode : error.status;
    deps.requestLog.write({ requestId, role: null, route: null, attempts: 0, outcome: error.code, status, latencyMs: Math.round(performance.now() - startedAt) });
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendError(res, error, { 'x-request-id': requestId });
}
