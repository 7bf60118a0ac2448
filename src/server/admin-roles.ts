// /admin/roles and /admin/config/effective: role changes at run time (validated like the
// YAML, effective at once, persisted, audited with who, what and why) and rollouts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError, invalidRequest, methodNotAllowed, notFound, type OpenAIErrorType } from '../protocol/errors.js';
import { isRoleError, roleNamed, type ChangeMeta, type RoleRuntime, type RolloutTarget } from '../roles/index.js';
import { jsonBody, pathSegment, requireString } from './admin-body.js';
import { sendJson } from './respond.js';

const ROLE_PATH = /^\/admin\/roles\/([^/]+)(\/rollout(?:\/(advance|rollback))?)?$/;

export const isRoleAdminPath = (path: string) => path === '/admin/roles' || path.startsWith('/admin/roles/') || path === '/admin/config/effective';

export async function handleRoleAdmin(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, who: string, roles: RoleRuntime): Promise<void> {
  try {
    await route(req, res, path, query, who, roles);
  } catch (e) {
    if (!isRoleError(e)) throw e;
    const type: OpenAIErrorType = e.status === 404 ? 'not_found_error' : 'invalid_request_error';
    throw new GatewayError(e.status, e.code, type, e.message, e.param);
  }
}

async function route(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, who: string, roles: RoleRuntime): Promise<void> {
  const method = req.method ?? 'GET';
  if (path === '/admin/config/effective') {
    if (method !== 'GET') throw methodNotAllowed(method, path);
    // Secrets print as "[secret]": the config's Secret values never serialise.
    return sendJson(res, 200, { config: roles.effective, overlayActive: roles.view().overlay.active });
  }
  if (path === '/admin/roles') {
    if (method !== 'GET') throw methodNotAllowed(method, path);
    return sendJson(res, 200, roles.view());
  }
  if (path === '/admin/roles/overlay') {
    if (method !== 'DELETE') throw methodNotAllowed(method, path);
    const body = await jsonBody(req, true);
    const only = query.get('role') ?? (typeof body.role === 'string' ? body.role : undefined);
    return sendJson(res, 200, roles.drop(meta({ reason: query.get('reason') ?? body.reason }, who), only));
  }
  const match = ROLE_PATH.exec(path);
  if (!match) throw notFound(path);
  const name = pathSegment(match[1]!, 'name');
  const action = match[3] ?? (match[2] ? 'rollout' : 'role');
  switch (action) {
    case 'role': {
      if (method === 'GET') {
        const view = roles.view();
        const [effective, base] = [roleNamed(view.roles, name), roleNamed(view.base, name)];
        if (!effective && !base) throw new GatewayError(404, 'unknown_role', 'not_found_error', `role "${name}" does not exist`, 'name');
        return sendJson(res, 200, { role: name, effective: effective ?? null, base: base ?? null, overlay: roleNamed(view.overlay.roles, name) ?? null, rollout: roleNamed(view.rollouts, name) ?? null });
      }
      if (method !== 'PUT' && method !== 'PATCH') throw methodNotAllowed(method, path);
      const { reason, ...entry } = await jsonBody(req);
      const m = meta({ reason }, who);
      return sendJson(res, 200, method === 'PUT' ? roles.replace(name, entry, m) : roles.patch(name, entry, m));
    }
    case 'rollout': {
      if (method === 'GET') return sendJson(res, 200, roles.rollout(name));
      if (method !== 'POST') throw methodNotAllowed(method, path);
      const { reason, ...rollout } = await jsonBody(req);
      return sendJson(res, 201, roles.startRollout(name, rollout, meta({ reason }, who)));
    }
    case 'advance': {
      if (method !== 'POST') throw methodNotAllowed(method, path);
      const body = await jsonBody(req);
      return sendJson(res, 200, roles.advance(name, target(body), meta(body, who)));
    }
    default: {
      if (method !== 'POST') throw methodNotAllowed(method, path);
      return sendJson(res, 200, roles.rollback(name, meta(await jsonBody(req), who)));
    }
  }
}

/** Every change says why: a reason is required. */
function meta(body: Record<string, unknown>, who: string): ChangeMeta {
  return { by: who, reason: requireString(body, 'reason') };
}

function target(body: Record<string, unknown>): RolloutTarget {
  if (typeof body.weight === 'number') return { weight: body.weight };
  if (body.weights !== null && typeof body.weights === 'object' && !Array.isArray(body.weights)) return { weights: body.weights as Record<string, number> };
  throw invalidRequest('expected "weight" (the candidate\u2019s percent) or "weights" (a share per model)', 'weight');
}
