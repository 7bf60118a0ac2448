// Which parts of a reloaded config a running gateway can take as they are, and which only a
// restart applies (they shape connections, the catalog or the store the gateway was built on).
// `models`, `providers` and `server` are split in two: a model's `breaker` override reaches
// the breakers the way the top-level `breaker` does, and a model's or provider's `timeouts`
// are read by each request the way the top-level `timeouts` are (a changed connect timeout
// gets a new pool), while the rest of a model or provider shapes its catalog entry; the
// server's client keys and admin tokens are read on each request (a leaked key is rotated
// without a restart), and node:http reads its receive limits (requestTimeout, headersTimeout)
// at each look for late requests, while its address, other limits and drain windows were fixed
// at start.
import { createHash } from 'node:crypto';
import { Secret } from './secret.js';
import type { ModelConfig, WardenConfig } from './schema.js';

export type Section = keyof WardenConfig;

/**
 * What a reload applied: a section, one model's breaker override (`models.chat-main.breaker`),
 * one model's or provider's timeouts (`providers.alpha.timeouts`), or the server's credentials.
 */
export type HotPart = Section | `models.${string}.${'breaker' | 'timeouts'}` | `providers.${string}.timeouts` | CredentialPart | ReceiveLimitPart;

export type CredentialPart = 'server.clientKeys' | 'server.adminTokens';

export type ReceiveLimitPart = 'server.requestTimeout' | 'server.headersTimeout';

/** Applied to the running gateway by a reload. `canary` only while it stays on (a new interval reschedules its rounds). */
export const HOT_SECTIONS: readonly Section[] = ['roles', 'blocklist', 'breaker', 'timeouts', 'canary', 'notify'];

/**
 * Kept from the running config by a reload: a change is logged and audited as needing a
 * restart (`models`: all but the breaker overrides and timeouts; `providers`: all but the
 * timeouts; `server`: all but the credentials).
 */
export const RESTART_SECTIONS: readonly Section[] = ['server', 'state', 'providers', 'models', 'telemetry'];

export interface SectionChanges {
  hot: HotPart[];
  restart: Section[];
}

export function changedSections(prev: WardenConfig, next: WardenConfig): SectionChanges {
  const changed = (s: Section) =>
    s === 'models' ? fingerprint(withoutLiveParts(prev.models)) !== fingerprint(withoutLiveParts(next.models))
    : s === 'providers' ? fingerprint(withoutLiveParts(prev.providers)) !== fingerprint(withoutLiveParts(next.providers))
    : s === 'server' ? fingerprint(withoutLiveServerParts(prev.server)) !== fingerprint(withoutLiveServerParts(next.server))
    : fingerprint(prev[s]) !== fingerprint(next[s]);
  const hot: HotPart[] = HOT_SECTIONS.filter(changed);
  if (fingerprint(prev.server.clientKeys) !== fingerprint(next.server.clientKeys)) hot.push('server.clientKeys');
  if (fingerprint([prev.server.adminToken, prev.server.adminTokens]) !== fingerprint([next.server.adminToken, next.server.adminTokens])) hot.push('server.adminTokens');
  if (prev.server.requestTimeout !== next.server.requestTimeout) hot.push('server.requestTimeout');
  if (prev.server.headersTimeout !== next.server.headersTimeout) hot.push('server.headersTimeout');
  const restart = RESTART_SECTIONS.filter(changed);
  // Whether there is a canary at all is set at start (its runner and scheduler); its rules and interval reload.
  if (hot.includes('canary') && (!prev.canary || !next.canary)) {
    hot.splice(hot.indexOf('canary'), 1);
    restart.push('canary');
  }
  // A model or provider that only a restart adds or removes has no running breakers or requests to change.
  for (const name of Object.keys(prev.models)) {
    if (Object.hasOwn(next.models, name) && fingerprint(prev.models[name]!.breaker) !== fingerprint(next.models[name]!.breaker)) hot.push(`models.${name}.breaker`);
  }
  for (const name of Object.keys(prev.providers)) {
    if (Object.hasOwn(next.providers, name) && fingerprint(prev.providers[name]!.timeouts) !== fingerprint(next.providers[name]!.timeouts)) hot.push(`providers.${name}.timeouts`);
  }
  for (const name of Object.keys(prev.models)) {
    if (Object.hasOwn(next.models, name) && fingerprint(prev.models[name]!.timeouts) !== fingerprint(next.models[name]!.timeouts)) hot.push(`models.${name}.timeouts`);
  }
  return { hot, restart };
}

/** Whether a reload changed any route's timeouts: the top-level ones, a provider's or a model's. */
export function timeoutsChanged(hot: readonly HotPart[]): boolean {
  return hot.some((part) => part === 'timeouts' || part.endsWith('.timeouts'));
}

/** Whether a reload changed who may call: client keys or admin tokens. */
export function credentialsChanged(hot: readonly HotPart[]): boolean {
  return hot.includes('server.clientKeys') || hot.includes('server.adminTokens');
}

/** Whether a reload changed how long a request may take to arrive. */
export function receiveLimitsChanged(hot: readonly HotPart[]): boolean {
  return hot.includes('server.requestTimeout') || hot.includes('server.headersTimeout');
}

/** Whether a reload changed any route's breaker settings: the top-level ones or a model's own. */
export function breakersChanged(hot: readonly HotPart[]): boolean {
  return hot.some((part) => part === 'breaker' || (part.startsWith('models.') && part.endsWith('.breaker')));
}

/**
 * The next config with what a reload cannot apply taken from the running one. Running models
 * keep their running shape but take the file's breaker overrides and timeouts, which apply at
 * once; running providers take the file's timeouts, and the running server settings the
 * file's credentials and receive limits, likewise.
 */
export function reloadable(prev: WardenConfig, next: WardenConfig, restart: readonly Section[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...next };
  for (const s of restart) out[s] = prev[s];
  if (restart.includes('server')) {
    const { clientKeys, adminToken, adminTokens, requestTimeout, headersTimeout } = next.server;
    const { adminToken: _running, ...kept } = prev.server;
    const live = { clientKeys, adminTokens, requestTimeout, headersTimeout };
    out.server = adminToken === undefined ? { ...kept, ...live } : { ...kept, ...live, adminToken };
  }
  if (restart.includes('models')) {
    out.models = Object.fromEntries(Object.entries(prev.models).map(([name, model]) => [name, Object.hasOwn(next.models, name) ? withLiveParts(model, next.models[name]!) : model]));
  }
  if (restart.includes('providers')) {
    out.providers = Object.fromEntries(Object.entries(prev.providers).map(([name, provider]) => [name, Object.hasOwn(next.providers, name) ? { ...provider, timeouts: next.providers[name]!.timeouts } : provider]));
  }
  return out;
}

/** A running model with the file's breaker override and timeouts: the parts a reload applies. */
function withLiveParts(model: ModelConfig, file: ModelConfig): ModelConfig {
  const { breaker: _running, ...rest } = model;
  return file.breaker === undefined ? { ...rest, timeouts: file.timeouts } : { ...rest, timeouts: file.timeouts, breaker: file.breaker };
}

/** The server settings without what a reload applies (credentials, receive limits): what only a restart changes. */
function withoutLiveServerParts(server: WardenConfig['server']): Record<string, unknown> {
  const { clientKeys: _keys, adminToken: _token, adminTokens: _tokens, requestTimeout: _request, headersTimeout: _headers, ...rest } = server;
  return rest;
}

/** Models or providers without what a reload applies to them (breaker overrides, timeouts): what only a restart changes. */
function withoutLiveParts(entries: Record<string, { timeouts: unknown; breaker?: unknown }>): Record<string, Record<string, unknown>> {
  return Object.fromEntries(Object.entries(entries).map(([name, { timeouts: _timeouts, breaker: _breaker, ...rest }]) => [name, rest]));
}

/**
 * A comparable text of a section; a secret counts by a digest of its value, which is never
 * printed. Keys are sorted: the same providers, models or headers written in another order
 * are the same settings, not a change that needs a restart.
 */
function fingerprint(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    if (raw instanceof Secret) return `secret:${createHash('sha256').update(raw.reveal()).digest('hex')}`;
    return isPlainObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v;
  }) ?? '';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}
