// An OpenRouter endpoint's breaker outlives a restart (SQLite file store): the endpoint stays
// in provider.ignore from the first request on. Its breaker is otherwise read only when the
// endpoint is admitted, which never happens while it is ignored.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { parseConfig } from '../../src/config/index.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { parseScenario, startFleet, type Fleet } from '../../src/sim/index.js';
import { openStore } from '../../src/state/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { ManualClock } from '../helpers/clock.js';

const SCENARIO = { seed: 3, providers: { Alpha: { models: ['deepseek/deepseek-chat'] }, Beta: { models: ['deepseek/deepseek-chat'] } } };
const HELLO = [{ role: 'user' as const, content: 'Hello there!' }];

let fleet: Fleet;
let dir: string;
const log = createLogger({ level: 'silent' });
// One clock for both lives of the gateway: the cooldown has not ended when it comes back.
const clock = new ManualClock();

before(async () => {
  fleet = await startFleet({ scenario: parseScenario(SCENARIO), port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'warden-breakers-'));
});
after(async () => {
  await fleet.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(): Promise<{ gateway: Gateway; client: OpenAI }> {
  const config = parseConfig(`
breaker: { failures: 2, cooldown: 10m }
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
models:
  chat-main: { provider: openrouter, model: deepseek/deepseek-chat, routes: discover }
roles:
  chat: { tier: degrade, models: [chat-main] }
`, 'test', {});
  const gateway = createGateway(config, { log, clock, processMetrics: false, canarySchedule: false, store: openStore({ sqlite: join(dir, 'warden.db') }, { log }) });
  const url = await gateway.listen(0, '127.0.0.1');
  return { gateway, client: new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 20_000 }) };
}

test('an endpoint whose breaker was open before a restart is still ignored after it', async () => {
  const first = await open();
  fleet.setFaults('Beta', { error503: 1 });
  for (let i = 0; i < 2; i++) {
    await assert.rejects(first.client.chat.completions.create({ model: 'chat-main@openrouter/Beta', messages: HELLO }), OpenAI.InternalServerError);
  }
  assert.equal(first.gateway.breakers.state('chat-main@openrouter/Beta'), 'open');
  await first.gateway.close();

  const second = await open();
  try {
    assert.equal(second.gateway.breakers.state('chat-main@openrouter/Beta'), 'open', 'known open before any request');
    await second.client.chat.completions.create({ model: 'chat', messages: HELLO });
    assert.deepEqual(fleet.stats().recent.at(-1)!.providerPrefs, { ignore: ['beta'] });
  } finally {
    await second.gateway.close();
  }
});
