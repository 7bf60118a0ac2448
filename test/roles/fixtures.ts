// A fleet and config for the role tests: three direct providers, so a route id names the
// model that answered (`chat-main@alpha`), and two named admin tokens.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type OpenAI from 'openai';
import type { Fleet } from '../../src/sim/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';

export const SCENARIO = {
  seed: 8,
  providers: {
    Alpha: { models: ['deepseek/deepseek-chat'], replyTokens: 8 },
    small: { models: ['gpt-4o-mini'], replyTokens: 8 },
    New: { models: ['new/model'], replyTokens: 8 },
  },
};

export const ALICE = 'alice-token';
export const BOB = 'bob-token';

export function rolesConfig(fleet: Fleet, extra = ''): string {
  return `
server: { adminToken: "root-token", adminTokens: [{ name: alice, token: "${ALICE}" }, { name: bob, token: "${BOB}" }] }
providers:
  alpha: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Alpha')}" }
  small: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}" }
  new:   { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('New')}" }
models:
  chat-main:  { provider: alpha, model: deepseek/deepseek-chat, profile: { price: { input: 1, output: 2 } } }
  chat-small: { provider: small, model: gpt-4o-mini }
  chat-new:   { provider: new, model: new/model, profile: { price: { input: 0.5, output: 1 } } }
roles:
  chat:   { tier: degrade, models: [chat-main, chat-small], checks: [nonempty, prefix] }
  intent: { tier: default, models: [chat-small], default: { content: '{"intent":"chitchat"}' } }
${extra}`;
}

export const HELLO = [{ role: 'user' as const, content: 'Hello there, how are you today?' }];

/** The model whose route answered a request to `model` (from x-warden-route). */
export async function servedBy(client: OpenAI, model: string, sticky?: string): Promise<string> {
  const { response } = await client.chat.completions.create({ model, messages: HELLO }, sticky === undefined ? {} : { headers: { 'x-warden-sticky': sticky } }).withResponse();
  return (response.headers.get('x-warden-route') ?? '').split('@')[0]!;
}

export interface AdminAnswer {
  status: number;
  body: Record<string, any>;
}

/** An admin call with a token; answers the status and the parsed body. */
export async function admin(url: string, token: string, method: string, path: string, body?: unknown): Promise<AdminAnswer> {
  const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

export interface FileGateway extends Harness {
  /** The config file, in a folder of its own (the watcher looks at every name in it). */
  file: string;
}

/** The role fleet and a gateway started from a config file written from `yaml`, for reloads. */
export async function startFromFile(yaml: (fleet: Fleet) => string): Promise<FileGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-reload-'));
  const file = join(dir, 'warden.yaml');
  const h = await startHarness({
    scenario: SCENARIO,
    configYaml: (fleet) => {
      const text = yaml(fleet);
      writeFileSync(file, text);
      return text;
    },
  });
  return { ...h, file, close: () => h.close().finally(() => rmSync(dir, { recursive: true, force: true })) };
}
