import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRouteId, parseRouteId } from '../../src/catalog/index.js';
import { parseDuration } from '../../src/config/index.js';

test('route ids round-trip', () => {
  for (const id of ['chat-small@openai', 'chat-main@openrouter/DeepInfra', 'm@p/Name With Spaces']) {
    assert.equal(formatRouteId(parseRouteId(id)!), id);
  }
  assert.deepEqual(parseRouteId('chat-main@openrouter/DeepInfra'), { model: 'chat-main', provider: 'openrouter', endpoint: 'DeepInfra' });
  for (const bad of ['chat', '@openai', 'chat@', 'chat@openrouter/']) assert.equal(parseRouteId(bad), null, bad);
});

test('durations', () => {
  assert.equal(parseDuration('250ms'), 250);
  assert.equal(parseDuration('30s'), 30_000);
  assert.equal(parseDuration('1.5m'), 90_000);
  assert.equal(parseDuration('14d'), 14 * 86_400_000);
  assert.equal(parseDuration(1200), 1200);
  assert.equal(parseDuration('soon'), null);
  assert.equal(parseDuration(-1), null);
});
