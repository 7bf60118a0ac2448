// The fleet scenario, the Warden config and the request bodies of a bench run. The sim answers
// 404 for a model its provider does not serve, so direct and minimal runs name the upstream
// model while Warden is sent its own model names, which it rewrites.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `bench` answers at once; `slow` holds a stream open at one token a second, for hours. */
export const SCENARIO = `seed: 1
providers:
  bench: { models: [bench-model], replyTokens: 40 }
  slow: { models: [slow-model], firstTokenMs: 5, tokensPerSecond: 1, replyTokens: 100000 }
`;

/** Connections to the instant provider, for Warden and the minimal proxy alike. */
export const LOAD_CONNECTIONS = 256;

/**
 * Connections to the slow provider: a held SSE stream occupies one for its whole life, so the
 * pool needs one per stream or the rest wait in its queue and never see a first token.
 */
export function heldConnections(held: number): number {
  return Math.max(LOAD_CONNECTIONS, held);
}

/** The bench's gateway config; `state` is the store section (SQLite in the run's folder, or Redis). */
export function wardenConfig(held: number, state: string): string {
  return `server: { port: 8787 }
state: ${state}
providers:
  sim: { kind: openai-compatible, baseUrl: "\${WARDEN_SIM_URL}/p/bench/v1", connections: ${LOAD_CONNECTIONS} }
  simslow: { kind: openai-compatible, baseUrl: "\${WARDEN_SIM_URL}/p/slow/v1", connections: ${heldConnections(held)} }
models:
  bench: { provider: sim, model: bench-model }
  held: { provider: simslow, model: slow-model, timeouts: { total: 10m, firstToken: 1m } }
`;
}

export interface Bodies {
  /** Non-streaming request, for wrk. */
  plain: string;
  /** Streaming request against the instant provider, for first-token latency. */
  stream: string;
  /** Streaming request against the slow provider, for held streams. */
  held: string;
}

function body(model: string, stream: boolean): string {
  return JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], ...(stream ? { stream: true } : {}) });
}

export const UPSTREAM_BODIES: Bodies = { plain: body('bench-model', false), stream: body('bench-model', true), held: body('slow-model', true) };
export const WARDEN_BODIES: Bodies = { plain: body('bench', false), stream: body('bench', true), held: body('held', true) };

export function writeFixtures(dir: string, held: number, redisUrl: string | null): { scenario: string; config: string; redisConfig: string | null } {
  const scenario = join(dir, 'scenario.yaml');
  const config = join(dir, 'warden.yaml');
  writeFileSync(scenario, SCENARIO);
  writeFileSync(config, wardenConfig(held, `{ sqlite: "${join(dir, 'warden.db')}" }`));
  if (redisUrl === null) return { scenario, config, redisConfig: null };
  const redisConfig = join(dir, 'warden-redis.yaml');
  writeFileSync(redisConfig, wardenConfig(held, `{ redis: "${redisUrl}" }`));
  return { scenario, config, redisConfig };
}
