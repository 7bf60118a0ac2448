// Starts what the gateway tests talk to: a simulated fleet on a free loopback port, a
// gateway configured against it, and the official openai client pointed at the gateway.
import OpenAI from 'openai';
import { parseConfig, type WardenConfig } from '../../src/config/index.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { parseScenario, startFleet, type Fleet, type FleetStats } from '../../src/sim/index.js';
import { createLogger, type Logger } from '../../src/telemetry/index.js';
import type { Clock } from '../../src/clock/index.js';
import { MemoryStore, type Store } from '../../src/state/index.js';

export const SCENARIO = {
  seed: 7,
  providers: {
    Alpha: { models: ['deepseek/deepseek-chat'] },
    Beta: { models: ['deepseek/deepseek-chat'] },
    Gamma: { models: ['deepseek/deepseek-chat'] },
    small: { models: ['gpt-4o-mini'] },
    // Slow enough that a stream is still open when a test acts on it.
    Slow: { models: ['slow/model'], tokensPerSecond: 20, replyTokens: 400 },
    // Answers headers at once but its first token only after a minute.
    Late: { models: ['late/model'], firstTokenMs: 60_000 },
  },
};

export function gatewayConfigYaml(fleet: Fleet, extra = ''): string {
  return `
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
  direct:     { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}" }
  slowdirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Slow')}" }
  latedirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Late')}" }
models:
  chat-main:  { provider: openrouter, model: deepseek/deepseek-chat, routes: discover }
  chat-small: { provider: direct, model: gpt-4o-mini }
  slow:       { provider: slowdirect, model: slow/model, timeouts: { firstByte: 2s } }
  late:       { provider: latedirect, model: late/model, timeouts: { firstToken: 300ms, total: 2s } }
roles:
  chat:      { tier: degrade, models: [chat-main, chat-small] }
  intent:    { tier: default, models: [chat-small], default: { content: '{"intent":"chitchat"}' } }
${extra}`;
}

export interface Harness {
  fleet: Fleet;
  gateway: Gateway;
  url: string;
  client: OpenAI;
  close(): Promise<void>;
}

export interface HarnessOptions {
  scenario?: unknown;
  configYaml?: (fleet: Fleet) => string;
  clientKey?: string;
  clock?: Clock;
  /** Defaults to a fresh in-memory store, so parallel tests share no file. */
  store?: Store;
  /** Defaults to a silent logger. */
  log?: Logger;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fleet = await startFleet({ scenario: parseScenario(options.scenario ?? SCENARIO), port: 0 });
  let config: WardenConfig;
  try {
    config = parseConfig((options.configYaml ?? gatewayConfigYaml)(fleet), 'test', {});
  } catch (e) {
    await fleet.close();
    throw e;
  }
  const gateway = createGateway(config, { log: options.log ?? createLogger({ level: 'silent' }), processMetrics: false, clock: options.clock, store: options.store ?? new MemoryStore(), canarySchedule: false });
  const url = await gateway.listen(0, '127.0.0.1');
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: options.clientKey ?? 'unused', maxRetries: 0, timeout: 20_000 });
  return {
    fleet,
    gateway,
    url,
    client,
    async close() {
      await gateway.close();
      await fleet.close();
    },
  };
}

/**
 * Starts a stream through the gateway, reads its first chunk, aborts it as a client would and
 * returns the fleet's stats once no stream or request is open there any more (the wait fails
 * when the upstream stream is left running).
 */
export async function abortStreamAfterFirstChunk(h: Harness, model: string): Promise<FleetStats> {
  const controller = new AbortController();
  const stream = await h.client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello there' }], stream: true }, { signal: controller.signal });
  await h.fleet.waitFor((s) => s.openStreams === 1);
  const iterator = stream[Symbol.asyncIterator]();
  await iterator.next();
  controller.abort();
  // The SDK ends an aborted stream quietly; what matters is what happens upstream.
  for (;;) if ((await iterator.next()).done) break;
  return h.fleet.waitFor((s) => s.openStreams === 0 && s.openRequests === 0);
}
