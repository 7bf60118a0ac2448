// What a reload can apply at once and what waits for a restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedSections, parseConfig } from '../../src/config/index.js';
import { LiveBreakerPolicies } from '../../src/hot-config.js';

const yaml = (over: { key?: string; breaker?: string; canary?: string; roles?: string; models?: string; modelBreaker?: string } = {}) => `
server: { adminToken: "${over.key ?? 'k1'}" }
breaker: { failures: ${over.breaker ?? '5'} }
providers:
  p: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }
models:
  a: { provider: p, model: ${over.models ?? 'm'}${over.modelBreaker ? `, breaker: ${over.modelBreaker}` : ''} }
roles:
  chat: { models: [a], tier: ${over.roles ?? 'degrade'} }
canary: { watch: [a], ${over.canary ?? 'interval: 30m'} }
`;
const config = (over = {}) => parseConfig(yaml(over), 'test', {});

test('nothing changed: nothing to apply', () => {
  assert.deepEqual(changedSections(config(), config()), { hot: [], restart: [] });
});

test('roles, breaker, canary rules and the gateway\u2019s own keys apply at once; models need a restart', () => {
  assert.deepEqual(changedSections(config(), config({ roles: 'strict', breaker: '3', canary: 'interval: 30m, mode: enforce' })), { hot: ['roles', 'breaker', 'canary'], restart: [] });
  assert.deepEqual(changedSections(config(), config({ models: 'm2', key: 'k2' })), { hot: ['server.adminTokens'], restart: ['models'] });
});

test('a new canary interval applies at once, alone or with new rules (the scheduler is rescheduled)', () => {
  assert.deepEqual(changedSections(config(), config({ canary: 'interval: 5m' })), { hot: ['canary'], restart: [] });
  assert.deepEqual(changedSections(config({ canary: 'interval: 10m, mode: enforce' }), config({ canary: 'interval: 5m, mode: observe' })), { hot: ['canary'], restart: [] });
});

test('adding or removing the canary needs a restart', () => {
  const without = parseConfig(yaml().replace(/^canary:.*$/m, ''), 'test', {});
  assert.deepEqual(changedSections(without, config()), { hot: [], restart: ['canary'] });
  assert.deepEqual(changedSections(config(), without), { hot: [], restart: ['canary'] });
});

test('breaker settings reach the policy objects breakers already hold', () => {
  const policies = new LiveBreakerPolicies(config());
  const held = policies.policyFor('a@p');
  assert.equal(held.failures, 5);
  assert.equal(policies.policyFor('a@p'), held, 'one object per route');
  policies.update(config({ breaker: '2' }));
  assert.equal(held.failures, 2);
  assert.equal(policies.policyFor('b@p').failures, 2);
});

test('a model\u2019s breaker override applies at once; the rest of the model needs a restart', () => {
  assert.deepEqual(changedSections(config(), config({ modelBreaker: '{ failures: 2 }' })), { hot: ['models.a.breaker'], restart: [] });
  assert.deepEqual(changedSections(config({ modelBreaker: '{ failures: 2 }' }), config({ modelBreaker: '{ failures: 2 }', models: 'm2' })), { hot: [], restart: ['models'] });
  assert.deepEqual(changedSections(config({ modelBreaker: '{ failures: 2 }' }), config({ models: 'm2' })), { hot: ['models.a.breaker'], restart: ['models'] });
});

test('a model\u2019s breaker override reaches the policy objects its routes\u2019 breakers hold, and leaves it when removed', () => {
  const policies = new LiveBreakerPolicies(config());
  const held = policies.policyFor('a@p');
  policies.update(config({ modelBreaker: '{ failures: 2 }' }));
  assert.equal(held.failures, 2);
  policies.update(config({ breaker: '4' }));
  assert.equal(held.failures, 4);
});

test('the same entries written in another order are no change', () => {
  const reordered = parseConfig(
    yaml()
      .replace('  p: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }', '  q: { baseUrl: "http://127.0.0.1:8/v1", kind: openai-compatible }\n  p: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }')
      .replace('  chat: { models: [a], tier: degrade }', '  intent: { models: [a] }\n  chat: { tier: degrade, models: [a] }'),
    'test',
    {},
  );
  const original = parseConfig(
    yaml()
      .replace('  p: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }', '  p: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }\n  q: { kind: openai-compatible, baseUrl: "http://127.0.0.1:8/v1" }')
      .replace('  chat: { models: [a], tier: degrade }', '  chat: { models: [a], tier: degrade }\n  intent: { models: [a] }'),
    'test',
    {},
  );
  assert.deepEqual(changedSections(original, reordered), { hot: [], restart: [] });
  assert.deepEqual(changedSections(original, config()), { hot: ['roles'], restart: ['providers'] }, 'a real change is still seen');
});
