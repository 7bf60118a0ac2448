import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isScenarioError, loadScenario, parseScenario, ScenarioError } from '../../src/sim/index.js';

function scenarioError(value: unknown): ScenarioError {
  try {
    parseScenario(value);
  } catch (e) {
    assert.ok(isScenarioError(e), `expected a ScenarioError, got ${String(e)}`);
    assert.equal(e.code, 'invalid_scenario');
    return e;
  }
  assert.fail('expected the scenario to be rejected');
}

test('a fault probability outside [0, 1] is named by its path', () => {
  const e = scenarioError({ providers: { Beta: { models: ['m'], faults: { prefix: 1.5 } } } });
  assert.match(e.message, /providers\.Beta\.faults\.prefix: expected a number between 0 and 1/);
});

test('unknown keys, missing models and bad types each name their path', () => {
  const e = scenarioError({
    providers: {
      Alpha: { models: [], latencyMs: -1 },
      Beta: { models: ['m'], faults: { prefx: 0.1 }, processingComments: 'yes' },
    },
    extra: true,
  });
  const text = e.issues.join('\n');
  assert.match(text, /providers\.Alpha\.models: expected at least one model/);
  assert.match(text, /providers\.Alpha\.latencyMs: expected a number of milliseconds >= 0/);
  assert.match(text, /providers\.Beta\.faults\.prefx: unknown key/);
  assert.match(text, /providers\.Beta\.processingComments: expected true or false/);
  assert.match(text, /extra: unknown key/);
});

test('a scenario without providers is rejected', () => {
  assert.match(scenarioError({ seed: 1, providers: {} }).message, /providers: expected at least one provider/);
  assert.match(scenarioError({ seed: 1 }).message, /providers: required/);
});

test('defaults fill every provider field and providers keep scenario order', () => {
  const scenario = parseScenario({ providers: { Zed: { models: ['m'] }, Alpha: { models: ['m'], faults: { drift: 1 } } } });
  assert.deepEqual(scenario.providers.map((p) => p.name), ['Zed', 'Alpha']);
  const [zed, alpha] = scenario.providers;
  assert.equal(zed?.latencyMs, 0);
  assert.equal(zed?.replyTokens, 40);
  assert.equal(zed?.retryAfter, 1);
  assert.equal(zed?.processingComments, false);
  assert.equal(zed?.faults.error503, 0);
  assert.equal(alpha?.faults.drift, 1);
  assert.equal(alpha?.apiKey, undefined);
});

test('${VAR} and ${VAR:-default} read the environment; an unset key means no key', () => {
  process.env.SIM_TEST_KEY = 'sk-from-env';
  delete process.env.SIM_TEST_UNSET;
  const scenario = parseScenario({
    providers: {
      a: { models: ['m'], apiKey: '${SIM_TEST_KEY}' },
      b: { models: ['m'], apiKey: '${SIM_TEST_UNSET}' },
      c: { models: ['${SIM_TEST_UNSET:-fallback-model}'] },
    },
  });
  assert.equal(scenario.providers[0]?.apiKey, 'sk-from-env');
  assert.equal(scenario.providers[1]?.apiKey, undefined);
  assert.deepEqual(scenario.providers[2]?.models, ['fallback-model']);
});

test('loadScenario reads YAML and names the file in errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-sim-'));
  const good = join(dir, 'good.yaml');
  writeFileSync(good, 'seed: 3\nproviders:\n  Alpha: { models: [m], firstTokenMs: 30 }\n');
  assert.equal(loadScenario(good).providers[0]?.firstTokenMs, 30);

  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'providers:\n  Beta: { models: [m], faults: { prefix: 2 } }\n');
  assert.throws(() => loadScenario(bad), (e: unknown) => isScenarioError(e) && e.message.startsWith(bad) && /providers\.Beta\.faults\.prefix/.test(e.message));

  const broken = join(dir, 'broken.yaml');
  writeFileSync(broken, 'providers: [unclosed\n');
  assert.throws(() => loadScenario(broken), (e: unknown) => isScenarioError(e) && /not valid YAML/.test(e.message));
});

test('the example fleet scenario is valid', () => {
  const scenario = loadScenario(join(import.meta.dirname, '../../../examples/fleet-demo.yaml'));
  const names = scenario.providers.map((p) => p.name);
  assert.ok(names.includes('small'));
  assert.ok(scenario.providers.filter((p) => p.models.includes('deepseek/deepseek-chat')).length >= 5);
});
