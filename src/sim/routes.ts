// The fleet's HTTP surface: per-provider OpenAI endpoints under /p/:provider/v1, the
// OpenRouter-style aggregator under /api/v1, and the admin endpoints under /sim.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openRouterEndpoints, openRouterModels, providerModels } from './catalog.js';
import { handleCompletion, type FleetContext, type Trace } from './completions.js';
import { readJson, sendError, sendJson } from './http.js';
import type { SimProvider } from './provider.js';
import { isScenarioError } from './scenario.js';
import type { Scenario } from './scenario.js';

export interface FleetControl {
  setFaults(provider: string, faults: unknown): void;
  reset(): void;
}

export interface RouteContext extends FleetContext {
  scenario: Scenario;
  control: FleetControl;
}

export function handleRequest(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path.startsWith('/sim/')) {
    admin(ctx, req, res, path).catch((e: unknown) => failed(res, e));
    return;
  }
  const trace: Trace = { model: '', served: null, stream: false, providerPrefs: null, body: null, fault: null, tried: [], unmatchedProviders: [] };
  ctx.book.requestStarted();
  res.once('close', () =>
    ctx.book.requestEnded({ at: Date.now(), path, status: res.headersSent ? res.statusCode : 0, ...trace }),
  );
  api(ctx, req, res, path, trace).catch((e: unknown) => failed(res, e));
}

/** A matched route: the method it takes and what answers it. */
interface Route {
  method: 'GET' | 'POST' | 'PUT';
  run(): void | Promise<void>;
}

async function api(ctx: RouteContext, req: IncomingMessage, res: ServerResponse, path: string, trace: Trace): Promise<void> {
  const route = apiRoute(ctx, req, res, path, trace);
  if (route === null) return; // already answered
  return dispatch(route, req, res, path);
}

function apiRoute(ctx: RouteContext, req: IncomingMessage, res: ServerResponse, path: string, trace: Trace): Route | null | undefined {
  if (path.startsWith('/p/')) {
    const slash = path.indexOf('/', 3);
    const name = decodeURIComponent(slash === -1 ? path.slice(3) : path.slice(3, slash));
    const rest = slash === -1 ? '' : path.slice(slash);
    const provider = findProvider(ctx.providers, name);
    if (!provider) {
      sendError(res, 404, `Unknown provider "${name}"`, 'not_found_error', 'provider_not_found');
      return null;
    }
    if (rest === '/v1/chat/completions') return { method: 'POST', run: () => handleCompletion(ctx, req, res, trace, provider) };
    if (rest === '/v1/models') {
      return {
        method: 'GET',
        run: () =>
          provider.authorizes(req.headers)
            ? sendJson(res, 200, providerModels(provider.spec, ctx.created))
            : sendError(res, 401, 'Incorrect API key provided.', 'authentication_error', 'invalid_api_key'),
      };
    }
    return undefined;
  }
  if (path === '/api/v1/chat/completions') return { method: 'POST', run: () => handleCompletion(ctx, req, res, trace) };
  if (path === '/api/v1/models') return { method: 'GET', run: () => sendJson(res, 200, openRouterModels(ctx.scenario, ctx.created)) };
  if (path.startsWith('/api/v1/models/') && path.endsWith('/endpoints')) {
    const model = decodeURIComponent(path.slice('/api/v1/models/'.length, -'/endpoints'.length));
    trace.model = model;
    const listing = openRouterEndpoints(ctx.scenario, model, ctx.created);
    return {
      method: 'GET',
      run: () =>
        listing
          ? sendJson(res, 200, listing)
          : sendError(res, 404, `No endpoints found for ${model}`, 'not_found_error', 'model_not_found', 'model'),
    };
  }
  return undefined;
}

async function admin(ctx: RouteContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  return dispatch(adminRoute(ctx, req, res, path), req, res, path);
}

function adminRoute(ctx: RouteContext, req: IncomingMessage, res: ServerResponse, path: string): Route | undefined {
  if (path === '/sim/stats') return { method: 'GET', run: () => sendJson(res, 200, ctx.book.snapshot()) };
  if (path === '/sim/reset') {
    return {
      method: 'POST',
      run: () => {
        ctx.control.reset();
        sendJson(res, 200, { ok: true });
      },
    };
  }
  const match = /^\/sim\/providers\/([^/]+)\/faults$/.exec(path);
  if (match?.[1]) return { method: 'PUT', run: () => putFaults(ctx, req, res, decodeURIComponent(match[1] as string)) };
  return undefined;
}

async function putFaults(ctx: RouteContext, req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
  const provider = findProvider(ctx.providers, name);
  if (!provider) return sendError(res, 404, `Unknown provider "${name}"`, 'not_found_error', 'provider_not_found');
  const parsed = await readJson(req, res);
  if (!parsed) return;
  const body = parsed.value;
  try {
    ctx.control.setFaults(provider.name, body);
  } catch (e) {
    if (isScenarioError(e)) return sendError(res, 400, e.message, 'invalid_request_error', e.code);
    throw e;
  }
  sendJson(res, 200, { provider: provider.name, faults: provider.faults });
}

async function dispatch(route: Route | undefined, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const method = req.method ?? 'GET';
  if (!route) return sendError(res, 404, `No route for ${method} ${path}`, 'not_found_error', 'not_found');
  if (method !== route.method) {
    return sendError(res, 405, `Method ${method} is not allowed on ${path}`, 'invalid_request_error', 'method_not_allowed', null, {
      allow: route.method,
    });
  }
  return route.run();
}

export function findProvider(providers: readonly SimProvider[], name: string): SimProvider | undefined {
  return providers.find((p) => p.name === name) ?? providers.find((p) => p.name.toLowerCase() === name.toLowerCase());
}

function failed(res: ServerResponse, e: unknown): void {
  if (res.headersSent || res.destroyed) return void res.destroy();
  sendError(res, 400, (e as Error).message ?? String(e), 'invalid_request_error', 'bad_request');
}
