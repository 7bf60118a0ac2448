// /admin: route states, the audit log, runtime blocklist entries, manual release / shed /
// restore, and a canary round on demand. Every call needs the admin token; without one
// configured the admin API is off.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isCanaryError } from '../canary/index.js';
import { parseDuration, type Secret } from '../config/index.js';
import { RouteControlError, type RouteControl } from '../health/index.js';
import { GatewayError, invalidRequest, methodNotAllowed, notFound, unauthorized } from '../protocol/errors.js';
import type { RoleRuntime } from '../roles/index.js';
import type { Store } from '../state/index.js';
import type { AuditQuery } from '../dashboard/index.js';
import { bearerToken } from './bearer.js';
import type { Credentials } from './credentials.js';
import { jsonBody, pathSegment, requireString } from './admin-body.js';
import { handleRoleAdmin, isRoleAdminPath } from './admin-roles.js';
import { sendJson } from './respond.js';

export interface CanaryControl {
  /** Runs one round now (of one route when given) and resolves with its report. */
  run(route?: string): Promise<unknown>;
}

export interface AdminDeps {
  /** The admin tokens (read on each call: a reload may rotate them). */
  credentials: Credentials;
  /** Runtime role management (/admin/roles, /admin/config/effective); absent, those paths are 404. */
  roles?: RoleRuntime | null;
  control: RouteControl;
  store: Store;
  canary: CanaryControl | null;
  /**
   * Ends a route's canary quarantine by hand; false when it had none. Works with no canary
   * configured: a quarantine stored earlier outlives the canary section.
   */
  releaseQuarantine(route: string, by: string): boolean;
  /** The dashboard's one-call snapshot (GET /admin/dashboard); absent, that path is 404. */
  dashboard?: { snapshot(query: AuditQuery): Promise<unknown> } | null;
}

export async function handleAdmin(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, deps: AdminDeps): Promise<void> {
  const tokens = deps.credentials.adminTokens;
  if (tokens.length === 0) throw new GatewayError(403, 'admin_disabled', 'permission_error', 'The admin API is off: set server.adminToken or server.adminTokens (from environment variables) to use it');
  const header = req.headers.authorization;
  const token = bearerToken(header);
  // Every token is compared (each in constant time), so the time taken does not say which one nearly matched.
  let who: string | null = null;
  for (const t of tokens) if (t.token.equals(token) && who === null) who = t.name;
  if (who === null) throw unauthorized(header ? 'Incorrect admin token' : 'Missing admin token: send "Authorization: Bearer <adminToken>"');
  try {
    if (isRoleAdminPath(path)) {
      if (!deps.roles) throw notFound(path);
      return await handleRoleAdmin(req, res, path, query, who, deps.roles);
    }
    await route(req, res, path, query, who, deps);
  } catch (e) {
    if (e instanceof RouteControlError) throw new GatewayError(e.code === 'invalid_ttl' ? 400 : 404, e.code, e.code === 'invalid_ttl' ? 'invalid_request_error' : 'not_found_error', e.message, e.code === 'invalid_ttl' ? 'ttl' : null);
    throw e;
  }
}

async function route(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, who: string, deps: AdminDeps): Promise<void> {
  const method = req.method ?? 'GET';
  const { control } = deps;
  if (path === '/admin/routes') {
    if (method !== 'GET') throw methodNotAllowed(method, path);
    return sendJson(res, 200, { routes: control.views() });
  }
  if (path === '/admin/audit') {
    if (method !== 'GET') throw methodNotAllowed(method, path);
    const limit = clampInt(query.get('limit'), 100, 1, 10_000);
    const filter = { route: query.get('route') ?? undefined, type: query.get('type') ?? undefined, since: sinceOf(query) };
    return sendJson(res, 200, { events: deps.store.audit(limit, filter) });
  }
  if (path === '/admin/dashboard') {
    if (method !== 'GET') throw methodNotAllowed(method, path);
    if (!deps.dashboard) throw new GatewayError(404, 'dashboard_unavailable', 'not_found_error', 'This gateway has no dashboard data');
    return sendJson(res, 200, await deps.dashboard.snapshot(auditQuery(query)));
  }
  if (path === '/admin/ledger') {
    if (method !== 'GET') throw methodNotAllowed(method, path);
    return sendJson(res, 200, { entries: deps.store.ledger(clampInt(query.get('limit'), 100, 1, 10_000)) });
  }
  if (path === '/admin/blocklist') {
    if (method === 'GET') return sendJson(res, 200, { entries: control.runtimeBlocks() });
    if (method !== 'POST') throw methodNotAllowed(method, path);
    const body = await jsonBody(req);
    const routeId = requireString(body, 'route');
    const reason = requireString(body, 'reason');
    // Only text and numbers can be durations; anything else (an object, a list) is refused like "soon".
    const ttl = typeof body.ttl === 'string' || typeof body.ttl === 'number' ? parseDuration(body.ttl) : null;
    if (ttl === null && body.ttl !== undefined && body.ttl !== null) throw invalidRequest('"ttl" must be a duration such as 30m, 2h or 1d', 'ttl');
    return sendJson(res, 201, control.addBlock(routeId, reason, ttl, who));
  }
  if (path.startsWith('/admin/blocklist/')) {
    if (method !== 'DELETE') throw methodNotAllowed(method, path);
    return sendJson(res, 200, { removed: control.removeBlock(pathSegment(path.slice('/admin/blocklist/'.length), 'id'), who) });
  }
  if (path === '/admin/canary/run') {
    if (method !== 'POST') throw methodNotAllowed(method, path);
    if (!deps.canary) throw new GatewayError(409, 'canary_not_configured', 'invalid_request_error', 'No canary is configured: add a canary section with watched models');
    const body = await jsonBody(req, true);
    const only = body.route;
    if (only !== undefined && (typeof only !== 'string' || only.trim() === '')) {
      throw invalidRequest('"route" must be a route id such as chat-main@openrouter/DeepInfra, or left out to probe every watched route', 'route');
    }
    try {
      return sendJson(res, 200, await deps.canary.run(only));
    } catch (e) {
      if (isCanaryError(e) && e.code === 'unknown_route') throw new GatewayError(404, e.code, 'not_found_error', e.message, 'route');
      if (isCanaryError(e) && e.code === 'round_in_progress') throw new GatewayError(409, 'canary_round_in_progress', 'invalid_request_error', `No round started: ${e.message}`);
      throw e;
    }
  }
  const action = /^\/admin\/routes\/(.+)\/(release|shed|restore)$/.exec(path);
  if (action) {
    if (method !== 'POST') throw methodNotAllowed(method, path);
    const routeId = pathSegment(action[1]!, 'route');
    const body = await jsonBody(req, true);
    const reason = typeof body.reason === 'string' && body.reason ? body.reason : `manual ${action[2]}`;
    if (action[2] === 'shed') control.shed(routeId, reason, who);
    else if (action[2] === 'restore') control.restore(routeId, reason, who);
    else {
      control.clearManual(routeId, who);
      deps.releaseQuarantine(routeId, who);
    }
    const view = control.views().find((v) => v.id === routeId);
    return sendJson(res, 200, { route: view ?? { id: routeId } });
  }
  throw notFound(path);
}

/** The audit filter of the dashboard's poll: `route`, `type`, `since` (epoch ms) and `limit`, as /admin/audit reads them. */
function auditQuery(query: URLSearchParams): AuditQuery {
  return {
    route: query.get('route') || undefined,
    type: query.get('type') || undefined,
    since: sinceOf(query),
    limit: clampInt(query.get('limit'), 50, 1, 1_000),
  };
}

/** `since` in epoch milliseconds; absent or empty is no bound, anything else that is not a number is refused. */
function sinceOf(query: URLSearchParams): number | undefined {
  const text = query.get('since');
  if (!text) return undefined;
  const since = Number(text);
  if (!Number.isFinite(since)) throw invalidRequest(`"since" must be a time in epoch milliseconds, got "${text.slice(0, 40)}"`, 'since');
  return since;
}

function clampInt(text: string | null, fallback: number, min: number, max: number): number {
  const n = text === null ? fallback : Number(text);
  return Number.isInteger(n) ? Math.min(max, Math.max(min, n)) : fallback;
}
