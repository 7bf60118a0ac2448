// OpenTelemetry end to end: a gateway configured with an OTLP endpoint sends a trace per
// chat request (a child span per upstream attempt) and per canary round (a child per probe)
// to a real OTLP/HTTP JSON receiver; without the endpoint the SDK is not even loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import type { Fleet } from '../../src/sim/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { describeExportError } from '../../src/telemetry/tracing.js';
import { startHarness } from '../helpers/harness.js';
import { startOtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

const PROVIDERS = ['a', 'b', 'stray'];
const SCENARIO = { seed: 5, providers: { a: { models: ['a-model'] }, b: { models: ['b-model'] }, stray: { models: ['stray-model'], faults: { prefix: 1 } } } };
const HELLO = [{ role: 'user' as const, content: 'Hello there, how are you?' }];

const config = (telemetry: string) => (fleet: Fleet) => `
providers:
${PROVIDERS.map((p) => `  ${p}: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl(p)}" }`).join('\n')}
models:
${PROVIDERS.map((p) => `  ${p}: { provider: ${p}, model: ${p}-model }`).join('\n')}
roles:
  chat:  { tier: degrade, models: [a, b] }
  gated: { tier: degrade, models: [stray, b], checks: [prefix] }
canary: { mode: observe, watch: [b], languages: [en], firstTokenLimit: 5s }
${telemetry}`;

test('without an OTLP endpoint the OpenTelemetry SDK is never loaded', { timeout: 60_000 }, async () => {
  const h = await startHarness({ scenario: SCENARIO, configYaml: config('') });
  try {
    await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
    await h.gateway.canary!.runRound();
  } finally {
    await h.close();
  }
  // The packages are CommonJS: whatever was imported sits in the require cache. (The API
  // package is there: prom-client loads it.)
  const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => /@opentelemetry\/(sdk-|exporter-|otlp-|resources)/.test(file));
  assert.deepEqual(loaded, []);
});

test('a trace per request with a span per attempt, and a span per canary probe, reach the OTLP endpoint', { timeout: 60_000 }, async () => {
  const receiver = await startOtlpReceiver();
  const telemetry = `telemetry: { otlp: { endpoint: "${receiver.endpoint}", headers: { x-collector-key: collector-k3y }, serviceName: warden-test } }`;
  const h = await startHarness({ scenario: SCENARIO, configYaml: config(telemetry) });
  let transportId: string | null;
  let qualityId: string | null;
  try {
    h.fleet.setFaults('a', { error503: 1 });
    const transport = await h.client.chat.completions.create({ model: 'chat', messages: HELLO }).withResponse();
    assert.equal(transport.response.headers.get('x-warden-route'), 'b@b');
    transportId = transport.response.headers.get('x-request-id');
    const quality = await h.client.chat.completions.create({ model: 'gated', messages: HELLO }).withResponse();
    assert.equal(quality.response.headers.get('x-warden-route'), 'b@b');
    qualityId = quality.response.headers.get('x-request-id');
    await h.gateway.canary!.runRound();
  } finally {
    // Closing shuts the tracer provider down, which exports what is still batched.
    await h.close();
  }
  const spans = await receiver.until((all) => all.some((s) => s.name === 'canary round') && all.filter((s) => s.name.startsWith('chat ')).length >= 2);
  await receiver.close();
  assert.ok(receiver.headers.every((h) => h['x-collector-key'] === 'collector-k3y'), 'the configured header goes with every export');
  assert.ok(spans.every((s) => s.service === 'warden-test'));

  const attemptsOf = (parent: ReceivedSpan) => spans.filter((s) => s.parentSpanId === parent.spanId).sort((x, y) => Number(x.attributes['warden.attempt']) - Number(y.attributes['warden.attempt']));
  const requestSpan = (id: string | null) => spans.find((s) => s.attributes['warden.request_id'] === id)!;

  const chat = requestSpan(transportId);
  assert.equal(chat.name, 'chat chat');
  assert.equal(chat.parentSpanId, null, 'the request span is the root of its trace');
  assert.deepEqual(pick(chat, ['warden.role', 'warden.outcome', 'warden.attempts', 'warden.route', 'http.response.status_code']), { 'warden.role': 'chat', 'warden.outcome': 'ok', 'warden.attempts': 2, 'warden.route': 'b@b', 'http.response.status_code': 200 });
  const [failed, answered] = attemptsOf(chat);
  assert.ok(failed && answered, 'two attempt spans under the request span');
  assert.equal(failed.traceId, chat.traceId);
  assert.equal(failed.name, 'upstream attempt');
  assert.deepEqual(pick(failed, ['warden.route', 'warden.model', 'warden.error_class']), { 'warden.route': 'a@a', 'warden.model': 'a', 'warden.error_class': 'upstream_status' });
  assert.equal(failed.statusCode, 2, 'a failed attempt is an error span');
  assert.deepEqual(pick(answered, ['warden.route', 'warden.model', 'warden.error_class', 'warden.fallback_reason']), { 'warden.route': 'b@b', 'warden.model': 'b', 'warden.error_class': 'none', 'warden.fallback_reason': 'transport:upstream_status_503' });

  const gated = requestSpan(qualityId);
  assert.equal(gated.name, 'chat gated');
  const [rejected, passed] = attemptsOf(gated);
  assert.equal(rejected!.attributes['warden.error_class'], 'quality');
  assert.equal(rejected!.attributes['warden.quality.verdict'], 'fail');
  assert.equal(rejected!.attributes['warden.quality.check'], 'prefix');
  const reason = rejected!.attributes['warden.quality.reason'];
  assert.equal(typeof reason, 'string');
  assert.equal(passed!.attributes['warden.fallback_reason'], `quality:${reason}`);
  assert.equal(passed!.attributes['warden.quality.verdict'], 'pass');

  const round = spans.find((s) => s.name === 'canary round')!;
  const probes = spans.filter((s) => s.parentSpanId === round.spanId);
  assert.deepEqual(probes.map((p) => p.name).sort(), ['latency', 'filter', 'schema', 'fact', 'prefix', 'language'].map((k) => `canary probe ${k}`).sort());
  for (const p of probes) {
    assert.equal(p.traceId, round.traceId);
    assert.equal(p.attributes['warden.route'], 'b@b');
    assert.ok(['pass', 'inconclusive'].includes(String(p.attributes['warden.verdict'])), `${p.name}: ${p.attributes['warden.verdict']}`);
  }
  const latency = probes.find((p) => p.name === 'canary probe latency')!;
  assert.equal(typeof latency.attributes['warden.first_token_ms'], 'number');
});

function pick(span: ReceivedSpan, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, span.attributes[k]]));
}

test('a collector that is down costs the last spans, not the shutdown: close resolves and the log says why', { timeout: 60_000 }, async () => {
  // A port that refuses: a receiver started and closed again.
  const gone = await startOtlpReceiver();
  const endpoint = gone.endpoint;
  await gone.close();
  const logs: Array<{ msg?: string; error?: string }> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(JSON.parse(String(chunk)) as { msg?: string; error?: string });
      done();
    },
  });
  const h = await startHarness({ scenario: SCENARIO, configYaml: config(`telemetry: { otlp: { endpoint: "${endpoint}" } }`), log: createLogger({ level: 'info', destination }) });
  await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
  await h.close();
  // The exporter retries a refused connection with backoff, so the bounded wait usually ends first.
  assert.ok(logs.some((l) => /last spans dropped$/.test(l.msg ?? '')), `no dropped spans logged: ${JSON.stringify(logs.map((l) => l.msg))}`);
});

test('an export error is logged with its code and message, never the endpoint\'s address', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4318'), { code: 'ECONNREFUSED' });
  assert.equal(describeExportError(refused), 'Error: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:4318');
  const withUrl = Object.assign(new Error('Bad Request from https://user:tok3n@collector.example/v1/traces'), { name: 'OTLPExporterError', code: 400 });
  assert.equal(describeExportError(withUrl), 'OTLPExporterError: 400: Bad Request from <url>');
  assert.equal(describeExportError(undefined), 'unknown');
});
