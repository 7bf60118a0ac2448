// /admin: route states, the audit log, runtime blocklist entries, manual release / shed /
// restore, and a canary round on demand. Every call needs the admin token; without one
// configured the admin API is off.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseDuration, type Secret } from '../config/index.js';
import { RouteControlError, type RouteControl } from '../health/index.js';
import { readBody } from '../protocol/body.js';
import { GatewayError, invalidJson, invalidRequest, methodNotAllowed, notFound, unauthorized } from '../protocol/errors.js';
import type { Store } from '../state/index.js';
import { sendJson } from './respond.js';

export interface CanaryControl {
  /** Runs one round now (of one route when given) and resolves with its report. */
  run(route?: string): Promise<unknown>;
  /** Ends a quarantine early by hand; false when the route was not quarantined. */
  release(route: string, by: string): boolean;
}

export interface AdminDeps {
  adminToken: Secret | undefined;
  control: RouteControl;
  store: Store;
  canary: CanaryControl | null;
}

const ADMIN = 'admin';

export async function handleAdmin(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, deps: AdminDeps): Promise<void> {
  if (!deps.adminToken || deps.adminToken.isEmpty) throw new GatewayError(403, 'admin_disabled', 'permission_error', 'The admin API is off: set server.adminToken (from an environment variable) to use it');
  const header = req.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!deps.adminToken.equals(token)) throw unauthorized(header ? 'Incorrect admin token' : 'Missing admin token: send "Authorization: Bearer <adminToken>"');
  try {
    await route(req, res, path, query, deps);
  } catch (e) {
    if (e instanceof RouteControlError) throw new GatewayError(e.code === 'invalid_ttl' ? 400 : 404, e.code, e.code === 'invalid_ttl' ? 'invalid_request_error' : 'not_found_error', e.message);
    throw e;
  }
}

async function route(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, deps: AdminDeps): Promise<void> {
  const method = req.method ?? 'GET';
  const { control } = deps;
  if (path === '/admin/routes') {
    if (method !== 'GET') throw methodNotAllowed(method, path);
    return sendJson(res, 200, { routes: control.views() });
  }
  if (path === '/admin/audit') {
    if (method !== 'GET') throw methodNotAllowed(method, path);
    const limit = clampInt(query.get('limit'), 100, 1, 10_000);
    const since = query.get('since');
    const filter = { route: query.get('route') ?? undefined, type: query.get('type') ?? undefined, since: since ? Number(since) : undefined };
    return sendJson(res, 200, { events: deps.store.audit(limit, filter) });
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
    const ttl = body.ttl === undefined || body.ttl === null ? null : parseDuration(body.ttl as string | number);
    if (ttl === null && body.ttl !== undefined && body.ttl !== null) throw invalidRequest('"ttl" must be a duration such as 30m, 2h or 1d', 'ttl');
    return sendJson(res, 201, control.addBlock(routeId, reason, ttl, ADMIN));
  }
  if (path.startsWith('/admin/blocklist/')) {
    if (method !== 'DELETE') throw methodNotAllowed(method, path);
    return sendJson(res, 200, { removed: control.removeBlock(decodeURIComponent(path.slice('/admin/blocklist/'.length)), ADMIN) });
  }
  if (path === '/admin/canary/run') {
    if (method !== 'POST') throw methodNotAllowed(method, path);
    if (!deps.canary) throw new GatewayError(409, 'canary_not_configured', 'invalid_request_error', 'No canary is configured: add a canary section with watched models');
    const body = await jsonBody(req, true);
    const only = typeof body.route === 'string' ? body.route : undefined;
    return sendJson(res, 200, await deps.canary.run(only));
  }
  const action = /^\/admin\/routes\/(.+)\/(release|shed|restore)$/.exec(path);
  if (action) {
    if (method !== 'POST') throw methodNotAllowed(method, path);
    const routeId = decodeURIComponent(action[1]!);
    const body = await jsonBody(req, true);
    const reason = typeof body.reason === 'string' && body.reason ? body.reason : `manual ${action[2]}`;
    if (action[2] === 'shed') control.shed(routeId, reason, ADMIN);
    else if (action[2] === 'restore') control.restore(routeId, reason, ADMIN);
    else {
      control.clearManual(routeId, ADMIN);
      deps.canary?.release(routeId, ADMIN);
    }
    const view = control.views().find((v) => v.id === routeId);
    return sendJson(res, 200, { route: view ?? { id: routeId } });
  }
  throw notFound(path);
}

async function jsonBody(req: IncomingMessage, optional = false): Promise<Record<string, unknown>> {
  const raw = await readBody(req, 64 * 1024);
  if (raw.length === 0 && optional) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw invalidJson((e as Error).message);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidRequest('request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

function requireString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalidRequest(`"${field}" is required and must be a non-empty string`, field);
  return value;
}

function clampInt(text: string | null, fallback: number, min: number, max: number): number {
  const n = text === null ? fallback : Number(text);
  return Number.isInteger(n) ? Math.min(max, Math.max(min, n)) : fallback;
}
