// Provider keys reach the provider and nothing else: not the log, not an error, not an answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { parseConfig } from '../../src/config/index.js';
import { createGateway } from '../../src/gateway.js';
import { parseScenario, startFleet } from '../../src/sim/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { MemoryStore } from '../../src/state/index.js';

test('an upstream key is sent upstream and never logged or echoed', async () => {
  const key = 'sk-sim-do-not-leak-4242';
  const fleet = await startFleet({ scenario: parseScenario({ seed: 1, providers: { keyed: { models: ['m'], apiKey: key } } }), port: 0 });
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  const yaml = (k: string) => `
providers:
  keyed: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('keyed')}", apiKey: "\${KEY}" }
models:
  m: { provider: keyed, model: m }
`;
  const gateway = createGateway(parseConfig(yaml(key), 'test', { KEY: key }), { log: createLogger({ level: 'debug', destination: sink }), processMetrics: false, store: new MemoryStore() });
  const url = await gateway.listen(0);
  try {
    const ok = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
    assert.equal(ok.status, 200, 'the key reached the provider');
    fleet.setFaults('keyed', { reset: 1 });
    const failed = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
    const failedText = await failed.text();
    assert.equal(failed.status, 502);
    const models = await (await fetch(`${url}/v1/models`)).text();
    const metrics = await (await fetch(`${url}/metrics`)).text();
    for (const text of [failedText, models, metrics, lines.join('')]) assert.ok(!text.includes(key), `leaked in: ${text.slice(0, 200)}`);
    assert.ok(lines.length > 0, 'the gateway did log');
  } finally {
    await gateway.close();
    await fleet.close();
  }
});

test('a provider header value (an Azure-style api-key) is sent upstream and shown as [secret]', async () => {
  const key = 'hdr-sim-do-not-leak-4343';
  const admin = 'adm-token-5151';
  // The provider refuses any request whose api-key header is not this key.
  const fleet = await startFleet({ scenario: parseScenario({ seed: 1, providers: { azure: { models: ['m'], apiKey: key, keyHeader: 'api-key' } } }), port: 0 });
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  const yaml = `
server: { adminToken: "\${ADMIN}" }
providers:
  azure: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('azure')}", headers: { api-key: "\${HDR}" } }
models:
  m: { provider: azure, model: m }
`;
  const gateway = createGateway(parseConfig(yaml, 'test', { HDR: key, ADMIN: admin }), { log: createLogger({ level: 'debug', destination: sink }), processMetrics: false, store: new MemoryStore() });
  const url = await gateway.listen(0);
  const chat = () => fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
  try {
    assert.equal((await chat()).status, 200, 'the header reached the provider');
    fleet.setFaults('azure', { reset: 1 });
    const failedText = await (await chat()).text();
    const effective = await fetch(`${url}/admin/config/effective`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(effective.status, 200);
    const effectiveText = await effective.text();
    assert.equal((JSON.parse(effectiveText) as { config: { providers: { azure: { headers: Record<string, string> } } } }).config.providers.azure.headers['api-key'], '[secret]');
    const roles = await (await fetch(`${url}/admin/roles`, { headers: { authorization: `Bearer ${admin}` } })).text();
    const models = await (await fetch(`${url}/v1/models`)).text();
    const metrics = await (await fetch(`${url}/metrics`)).text();
    for (const text of [effectiveText, roles, failedText, models, metrics, lines.join('')]) assert.ok(!text.includes(key), `leaked in: ${text.slice(0, 200)}`);
  } finally {
    await gateway.close();
    await fleet.close();
  }
});

test('an upstream that quotes the request\u2019s key in its errors has it cut out of every answer and log line', async () => {
  const key = 'sk-sim-quoted-back-6262';
  const fleet = await startFleet({ scenario: parseScenario({ seed: 1, providers: { echo: { models: ['m'], apiKey: key, quoteCredentials: true } } }), port: 0 });
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  const yaml = `
providers:
  echo: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('echo')}", apiKey: "\${KEY}" }
models:
  m: { provider: echo, model: m, breaker: { failures: 100 } }
`;
  const gateway = createGateway(parseConfig(yaml, 'test', { KEY: key }), { log: createLogger({ level: 'debug', destination: sink }), processMetrics: false, store: new MemoryStore() });
  const url = await gateway.listen(0);
  const chat = (stream: boolean) => fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] }) });
  try {
    const answers: string[] = [];
    // A 5xx quoted in Warden's 502, a 429 passed through as written, before and in a stream;
    // an error event relayed mid-stream.
    for (const [fault, status] of [['error500', 502], ['rateLimit', 429], ['streamError', 200]] as const) {
      fleet.setFaults('echo', { [fault]: 1 });
      for (const stream of [false, true]) {
        const res = await chat(stream);
        const text = await res.text();
        if (!(fault === 'streamError' && !stream)) assert.equal(res.status, status, `${fault} stream=${stream}: ${text}`);
        assert.match(text, /request authorization: Bearer \[secret\]/, `${fault} stream=${stream}: the upstream's message is still told`);
        answers.push(text);
      }
    }
    for (const text of [...answers, lines.join('')]) assert.ok(!text.includes(key), `leaked in: ${text.slice(0, 300)}`);
  } finally {
    await gateway.close();
    await fleet.close();
  }
});
