// A model's own `breaker` override reloads like the top-level `breaker`: the running breakers
// keep their state (failure counts, open or not) and the new thresholds apply from the next
// event; only the rest of a model's settings waits for a restart.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { loadConfig, watchConfig, type ConfigWatch } from '../../src/config/index.js';
import type { Fleet } from '../../src/sim/index.js';
import { until } from '../helpers/until.js';
import { HELLO, rolesConfig, startFromFile, type FileGateway } from './fixtures.js';

describe('config hot reload: a model\u2019s breaker override', () => {
  let h: FileGateway;
  let watch: ConfigWatch;
  const ROUTE = 'chat-main@alpha';
  /** The fixture's config with chat-main's model line given `extra` settings. */
  const configWith = (fleet: Fleet, extra: string) => rolesConfig(fleet).replace('profile: { price: { input: 1, output: 2 } } }', `profile: { price: { input: 1, output: 2 } }, ${extra} }`);
  const yaml = (extra: string) => configWith(h.fleet, extra);
  const reloads = () => h.gateway.store.audit(100, { type: 'config_reloaded' });
  /** Writes the file and waits for the watcher's reload; answers its audit detail. */
  const rewrite = async (text: string) => {
    const before = reloads().length;
    writeFileSync(h.file, text);
    await until(() => reloads().length === before + 1, 'the change on disk is reloaded');
    return reloads()[0]!.detail;
  };
  /** One request straight to a model whose provider answers 503: a transport failure of its route. */
  const failOnce = (model = 'chat-main') => assert.rejects(h.client.chat.completions.create({ model, messages: HELLO }), (e: { status?: number }) => e.status === 502 || e.status === 503);

  before(async () => {
    h = await startFromFile((fleet) => configWith(fleet, 'breaker: { failures: 3 }'));
    watch = watchConfig({ file: h.file, sighup: false, debounceMs: 20, reload: (trigger) => void h.gateway.reload(() => loadConfig(h.file, {}), trigger) });
    h.fleet.setFaults('Alpha', { error503: 1 });
  });
  after(async () => {
    watch.close();
    await h.close();
  });

  test('a lower failure threshold applies to live traffic at once, counting the failures already seen', async () => {
    await failOnce();
    assert.deepEqual([h.gateway.breakers.state(ROUTE), h.gateway.breakers.snapshot(ROUTE)?.consecutiveFailures], ['closed', 1]);

    const detail = await rewrite(yaml('breaker: { failures: 2 }'));
    assert.deepEqual(detail.applied, ['models.chat-main.breaker']);
    assert.deepEqual(detail.restartNeeded, [], 'nothing waits for a restart');
    assert.equal(h.gateway.config.models['chat-main']!.breaker?.failures, 2);
    assert.equal(h.gateway.breakers.snapshot(ROUTE)?.consecutiveFailures, 1, 'the running breaker keeps its count');

    // Under the old threshold (3) a second failure would leave the breaker closed.
    await failOnce();
    assert.equal(h.gateway.breakers.state(ROUTE), 'open');
  });

  test('an open breaker stays open through a reload; the rest of a model\u2019s changes wait for a restart', async () => {
    const detail = await rewrite(yaml('breaker: { failures: 2, cooldown: 5m }').replace('input: 1,', 'input: 3,'));
    assert.deepEqual(detail.applied, ['models.chat-main.breaker']);
    assert.deepEqual(detail.restartNeeded, ['models']);
    assert.equal(h.gateway.breakers.state(ROUTE), 'open');
    const running = h.gateway.config.models['chat-main']!;
    assert.deepEqual([running.breaker, running.profile?.price?.input], [{ failures: 2, cooldown: 300_000 }, 1], 'the override serves, the profile keeps its running value');
  });

  test('removing the override hands the route back to the top-level breaker settings', async () => {
    const detail = await rewrite(yaml('').replace('input: 1,', 'input: 3,').replace('roles:\n', 'breaker: { failures: 7 }\nroles:\n'));
    assert.deepEqual(detail.applied, ['breaker', 'models.chat-main.breaker']);
    assert.deepEqual(detail.restartNeeded, ['models']);
    assert.equal(h.gateway.config.models['chat-main']!.breaker, undefined);
    assert.equal(h.gateway.config.breaker.failures, 7);
  });

  test('an override of some fields inherits the others from the top-level breaker, a reloaded one included', async () => {
    const detail = await rewrite(yaml('').replace('input: 1,', 'input: 3,').replace('roles:\n', 'breaker: { failures: 1 }\nroles:\n').replace('model: gpt-4o-mini }', 'model: gpt-4o-mini, breaker: { cooldown: 5m } }'));
    assert.deepEqual(detail.applied, ['breaker', 'models.chat-small.breaker']);
    assert.deepEqual(h.gateway.config.models['chat-small']!.breaker, { cooldown: 300_000 }, 'only what the file writes');
    h.fleet.setFaults('small', { error503: 1 });
    try {
      // failures: 1 from the top level; the built-in default (5) would leave the breaker closed.
      await failOnce('chat-small');
      assert.equal(h.gateway.breakers.state('chat-small@small'), 'open');
    } finally {
      h.fleet.setFaults('small', {});
    }
  });
});
