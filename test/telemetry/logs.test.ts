// The request log: one JSON line per chat request (answered, streamed, failed, refused) that
// carries the id the client got in x-request-id; and no line of a whole run — successes,
// failures, a configuration fault, admin calls, bad credentials, trace export — holds any
// configured secret.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { parseConfig } from '../../src/config/index.js';
import { createGateway } from '../../src/gateway.js';
import { parseScenario, startFleet } from '../../src/sim/index.js';
import { MemoryStore } from '../../src/state/index.js';
import { createLogger, type RequestLine } from '../../src/telemetry/index.js';
import { startOtlpReceiver } from './otlp-receiver.js';

const ENV = {
  WARDEN_CLIENT_KEY: 'wck-client-5a1f09c3d2',
  WARDEN_ADMIN_TOKEN: 'wat-admin-8e77b1a0f4',
  PROVIDER_KEY: 'sk-provider-33c0d8e1b9',
  WRONG_PROVIDER_KEY: 'sk-stale-provider-9d02aa7c41',
  OTLP_TOKEN: 'otlp-collector-61fe2b93',
};
const SECRETS = Object.values(ENV);

type LoggedRequest = RequestLine & { msg: string };

test('one request line per chat request, with the id the client got; no configured secret in any line', { timeout: 60_000 }, async () => {
  const fleet = await startFleet({
    scenario: parseScenario({ seed: 3, providers: { keyed: { models: ['m'], apiKey: ENV.PROVIDER_KEY }, locked: { models: ['m'], apiKey: 'sk-the-current-one' } } }),
    port: 0,
  });
  const receiver = await startOtlpReceiver();
  const yaml = `
server: { clientKeys: ["\${WARDEN_CLIENT_KEY}"], adminToken: "\${WARDEN_ADMIN_TOKEN}" }
providers:
  keyed:  { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('keyed')}", apiKey: "\${PROVIDER_KEY}" }
  locked: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('locked')}", apiKey: "\${WRONG_PROVIDER_KEY}" }
models:
  good:    { provider: keyed, model: m }
  refused: { provider: locked, model: m }
roles:
  chat:          { tier: degrade, models: [good] }
  misconfigured: { tier: degrade, models: [refused, good] }
telemetry: { otlp: { endpoint: "${receiver.endpoint}", headers: { authorization: "Bearer \${OTLP_TOKEN}" } } }
`;
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const gateway = createGateway(parseConfig(yaml, 'test', ENV), { log: createLogger({ level: 'trace', destination: sink }), processMetrics: false, store: new MemoryStore() });
  const url = await gateway.listen(0, '127.0.0.1');
  const client = { authorization: `Bearer ${ENV.WARDEN_CLIENT_KEY}`, 'content-type': 'application/json' };
  const admin = { authorization: `Bearer ${ENV.WARDEN_ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const chat = (body: unknown, headers: Record<string, string> = client) =>
    fetch(`${url}/v1/chat/completions`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const hello = (model: string, extra: object = {}) => ({ model, messages: [{ role: 'user', content: 'Hello there, how are you?' }], ...extra });

  const chats: Array<{ id: string | null; status: number }> = [];
  const others: Response[] = [];
  const sent = async (res: Response, list: 'chat' | 'other') => {
    await res.text();
    if (list === 'chat') chats.push({ id: res.headers.get('x-request-id'), status: res.status });
    else others.push(res);
    return res;
  };
  try {
    const plain = await sent(await chat(hello('chat'), { ...client, 'x-request-id': 'client-chosen-1' }), 'chat');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get('x-request-id'), 'client-chosen-1', 'a valid incoming id is kept');
    assert.equal((await sent(await chat(hello('chat', { stream: true })), 'chat')).status, 200);
    assert.equal((await sent(await chat(hello('misconfigured')), 'chat')).status, 200, 'the refused key is a config fault; the next model answers');
    fleet.setFaults('keyed', { reset: 1 });
    assert.equal((await sent(await chat(hello('chat')), 'chat')).status, 503);
    fleet.setFaults('keyed', {});
    assert.equal((await sent(await chat(hello('chat'), { 'content-type': 'application/json' }), 'chat')).status, 401);
    assert.equal((await sent(await chat(hello('chat'), admin), 'chat')).status, 401, 'the admin token is no client key');
    assert.equal((await sent(await chat('{"model":', client), 'chat')).status, 400);
    assert.equal((await sent(await chat(hello('no-such-role')), 'chat')).status, 404);

    assert.equal((await sent(await fetch(`${url}/admin/routes`, { headers: admin }), 'other')).status, 200);
    assert.equal((await sent(await fetch(`${url}/admin/routes`, { headers: client }), 'other')).status, 401);
    const block = await fetch(`${url}/admin/blocklist`, { method: 'POST', headers: admin, body: JSON.stringify({ route: 'refused@locked', reason: 'stale key' }) });
    assert.equal((await sent(block, 'other')).status, 201);
    assert.equal((await sent(await fetch(`${url}/metrics`), 'other')).status, 200);
    assert.equal((await sent(await fetch(`${url}/v1/models`, { headers: client }), 'other')).status, 200);
    assert.equal((await sent(await fetch(`${url}/nowhere`), 'other')).status, 404);
  } finally {
    await gateway.close();
    await fleet.close();
    await receiver.close();
  }

  assert.ok(receiver.headers.length > 0 && receiver.headers.every((h) => h.authorization === `Bearer ${ENV.OTLP_TOKEN}`), 'the OTLP header secret was configured and sent');
  for (const res of others) assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, `${res.url} answered with an x-request-id`);

  const parsed = lines.map((line) => JSON.parse(line) as { msg?: string; notice?: string });
  assert.ok(parsed.some((l) => l.notice === 'config_fault'), 'the configuration fault was logged');
  for (const line of lines) for (const secret of SECRETS) assert.ok(!line.includes(secret), `a secret leaked into the log: ${line}`);

  const requestLines = parsed.filter((l): l is LoggedRequest => l.msg === 'request');
  assert.equal(requestLines.length, chats.length, 'one line per chat request, and none for the rest');
  for (const [i, c] of chats.entries()) {
    const line = requestLines.find((l) => l.requestId === c.id);
    assert.ok(line, `request ${i} (${c.id}) has its line`);
    assert.equal(line.status, c.status);
    assert.equal(typeof line.latencyMs, 'number');
  }
  const ok = requestLines.find((l) => l.requestId === 'client-chosen-1')!;
  assert.deepEqual({ ...ok, latencyMs: 0 }, { msg: 'request', level: 30, time: (ok as unknown as { time: number }).time, requestId: 'client-chosen-1', role: 'chat', route: 'good@keyed', attempts: 1, outcome: 'ok', status: 200, latencyMs: 0 });
  const fellBack = requestLines.find((l) => l.role === 'misconfigured')!;
  assert.deepEqual([fellBack.route, fellBack.attempts, fellBack.outcome], ['good@keyed', 2, 'ok']);
  const failed = requestLines.find((l) => l.status === 503)!;
  assert.deepEqual([failed.role, failed.outcome], ['chat', 'upstream_error']);
  const refused = requestLines.filter((l) => l.status === 401);
  assert.deepEqual(refused.map((l) => [l.role, l.route, l.attempts, l.outcome]), [[null, null, 0, 'invalid_api_key'], [null, null, 0, 'invalid_api_key']]);
});
