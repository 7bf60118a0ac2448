// /metrics: the counterfactual metrics fed by real traffic against the simulated fleet
// (attempts by error class, breaker state and openings, fallbacks, degraded share, strict
// 503s, canary probe results and quarantines), the derived gauges on their own, and the
// README's table held to what the registry exposes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Fleet } from '../../src/sim/index.js';
import { GatewayMetrics } from '../../src/telemetry/index.js';
import { startHarness } from '../helpers/harness.js';

/** Tests run from dist/test; the README stays at the root. */
const README = new URL('../../../README.md', import.meta.url);

/** Every sample of a metric in Prometheus text: its label pairs (`k="v"`) and value. */
function samples(text: string, name: string): Array<{ labels: string[]; value: number }> {
  const out = [];
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] === name) out.push({ labels: (match[2] ?? '').split(',').filter(Boolean), value: Number(match[3]) });
  }
  return out;
}

const pairs = (labels: Record<string, string>) => Object.entries(labels).map(([k, v]) => `${k}="${v}"`);

/** The value of the sample with exactly these labels, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = pairs(labels).sort().join(',');
  return samples(text, name).find((s) => [...s.labels].sort().join(',') === wanted)?.value;
}

/** The sum of the samples whose labels include these. */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = pairs(labels);
  return samples(text, name).filter((s) => wanted.every((p) => s.labels.includes(p))).reduce((sum, s) => sum + s.value, 0);
}

test('the degraded share and the breaker gauge are derived without per-request work', async () => {
  const metrics = new GatewayMetrics({ processMetrics: false });
  for (const result of ['primary', 'primary', 'fallback', 'degraded', 'default', 'unavailable', 'client_error', 'failed'] as const) metrics.recordRoleResult('chat', result);
  metrics.recordRoleResult('intent', 'primary');
  metrics.recordBreakerTransition('m@p', 'open', null, null);
  metrics.recordBreakerTransition('m@p', 'half_open', null, null);
  metrics.recordBreakerTransition('m@p', 'open', null, null);
  metrics.recordBreakerTransition('n@p', 'open', null, null);
  metrics.recordBreakerTransition('n@p', 'half_open', null, null);
  let text = await metrics.text();
  assert.equal(sample(text, 'warden_degraded_share', { role: 'chat' }), 2 / 8);
  assert.equal(sample(text, 'warden_degraded_share', { role: 'intent' }), 0);
  assert.equal(sample(text, 'warden_breaker_state', { route: 'm@p' }), 2);
  assert.equal(sample(text, 'warden_breaker_state', { route: 'n@p' }), 1);
  assert.equal(sample(text, 'warden_breaker_openings_total', { route: 'm@p' }), 2, 'a reopening from half_open is an opening');
  metrics.recordBreakerTransition('n@p', 'closed', 30_000, true);
  metrics.recordRoleResult('chat', 'degraded');
  metrics.setBreakerState('o@p', 'open');
  text = await metrics.text();
  assert.equal(sample(text, 'warden_breaker_state', { route: 'n@p' }), 0);
  assert.equal(sample(text, 'warden_breaker_state', { route: 'o@p' }), 2, 'a state adopted from another instance');
  assert.equal(total(text, 'warden_breaker_transitions_total', { route: 'o@p' }), 0, 'whose transition that instance counted');
  assert.equal(total(text, 'warden_breaker_openings_total', { route: 'o@p' }), 0);
  assert.equal(sample(text, 'warden_degraded_share', { role: 'chat' }), 3 / 9, 'counts handed over at the last scrape still count');
  assert.equal(sample(text, 'warden_role_requests_total', { role: 'chat', result: 'degraded' }), 2);
});

const PROVIDERS = ['a', 'b', 'd', 's', 'q'];
const SCENARIO = { seed: 8, providers: Object.fromEntries(PROVIDERS.map((p) => [p, { models: [`${p}-model`], ...(p === 'q' ? { faults: { prefix: 1 } } : {}) }])) };
const config = (fleet: Fleet) => `
providers:
${PROVIDERS.map((p) => `  ${p}: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl(p)}" }`).join('\n')}
models:
${PROVIDERS.map((p) => `  ${p}: { provider: ${p}, model: ${p}-model${p === 'a' ? ', breaker: { failures: 1 }' : ''} }`).join('\n')}
roles:
  chat:   { tier: degrade, models: [a, b] }
  sorry:  { tier: degrade, models: [d], degradeMessage: "Sorry, not now." }
  strict: { tier: strict, models: [s] }
canary: { mode: enforce, watch: [q], languages: [en], failedRounds: 1, capacityFloor: 0, firstTokenLimit: 5s }
`;
const HELLO = [{ role: 'user' as const, content: 'Hello there, how are you?' }];

test('requests, fallbacks, breakers and canary rounds show on /metrics under their documented names', { timeout: 60_000 }, async () => {
  const h = await startHarness({ scenario: SCENARIO, configYaml: config });
  try {
    h.fleet.setFaults('a', { error503: 1 });
    await h.client.chat.completions.create({ model: 'chat', messages: HELLO });
    await h.client.chat.completions.create({ model: 'sorry', messages: HELLO });
    h.fleet.setFaults('d', { error503: 1 });
    const { response } = await h.client.chat.completions.create({ model: 'sorry', messages: HELLO }).withResponse();
    assert.equal(response.headers.get('x-warden-degraded'), 'true');
    h.fleet.setFaults('s', { error503: 1 });
    await assert.rejects(h.client.chat.completions.create({ model: 'strict', messages: HELLO }), { status: 503 });
    const report = await h.gateway.canary!.runRound();
    assert.equal(report.routes[0]!.decisions[0]?.type, 'quarantine');

    const text = await (await fetch(`${h.url}/metrics`)).text();
    assert.equal(sample(text, 'warden_upstream_attempts_total', { route: 'a@a', error_class: 'upstream_status' }), 1);
    assert.equal(sample(text, 'warden_upstream_attempts_total', { route: 'b@b', error_class: 'none' }), 1);
    assert.equal(sample(text, 'warden_upstream_attempts_total', { route: 'd@d', error_class: 'none' }), 1);
    assert.equal(sample(text, 'warden_fallbacks_total', { role: 'chat', reason: 'transport:upstream_status_503', from_model: 'a', to_model: 'b' }), 1);
    assert.equal(sample(text, 'warden_fallbacks_total', { role: 'sorry', reason: 'transport:upstream_status_503', from_model: 'd', to_model: 'none' }), 1);
    // Once per role request, under the model of its first attempt: the fallback rate's denominator.
    assert.equal(sample(text, 'warden_first_attempts_total', { role: 'chat', model: 'a' }), 1);
    assert.equal(sample(text, 'warden_first_attempts_total', { role: 'sorry', model: 'd' }), 2);
    assert.equal(sample(text, 'warden_first_attempts_total', { role: 'strict', model: 's' }), 1);
    assert.equal(total(text, 'warden_first_attempts_total'), 4, 'a fallback is not a first attempt');
    assert.equal(sample(text, 'warden_breaker_state', { route: 'a@a' }), 2);
    assert.equal(sample(text, 'warden_breaker_openings_total', { route: 'a@a' }), 1);
    assert.equal(sample(text, 'warden_degraded_share', { role: 'sorry' }), 0.5);
    assert.equal(sample(text, 'warden_degraded_share', { role: 'chat' }), 0);
    assert.equal(sample(text, 'warden_strict_unavailable_total', { role: 'strict' }), 1);
    assert.equal(total(text, 'warden_canary_probe_results_total'), 6, 'one result per probe of the round, confirmations not counted again');
    assert.ok(total(text, 'warden_canary_probe_results_total', { verdict: 'fail' }) >= 1);
    assert.equal(total(text, 'warden_quarantines_total'), 1);
    assert.match(text, /^warden_quarantines_total\{reason="[a-z]+:[a-z_]+"\} 1$/m);
  } finally {
    await h.close();
  }
});

test('a breaker state adopted from another instance moves the gauge, not the transition counters', async () => {
  const h = await startHarness({ scenario: SCENARIO, configYaml: config });
  try {
    const at = Date.now();
    h.gateway.store.putBreaker('b@b', { state: 'open', consecutiveFailures: 5, level: 0, openedAt: at, retryAt: at + 30_000, probeUntil: null, closedAt: null, probes: 0, recent: [] });
    h.gateway.breakers.adopt('b@b');
    const text = await (await fetch(`${h.url}/metrics`)).text();
    assert.equal(sample(text, 'warden_breaker_state', { route: 'b@b' }), 2);
    assert.equal(total(text, 'warden_breaker_transitions_total', { route: 'b@b' }), 0);
    assert.equal(total(text, 'warden_breaker_openings_total', { route: 'b@b' }), 0);
  } finally {
    await h.close();
  }
});

test('the README table lists every metric /metrics exposes, and only those', { timeout: 60_000 }, async () => {
  const h = await startHarness({ scenario: SCENARIO, configYaml: config });
  let text: string;
  try {
    text = await (await fetch(`${h.url}/metrics`)).text();
  } finally {
    await h.close();
  }
  const exposed = [...text.matchAll(/^# TYPE (warden_\w+) /gm)].map((m) => m[1]!).sort();
  const readme = readFileSync(README, 'utf8');
  const section = readme.slice(readme.indexOf('\n## Metrics'), readme.indexOf('\n## ', readme.indexOf('\n## Metrics') + 1));
  const documented = [...section.matchAll(/^\| `(warden_\w+)` \|/gm)].map((m) => m[1]!).sort();
  assert.deepEqual(documented, exposed);
});
