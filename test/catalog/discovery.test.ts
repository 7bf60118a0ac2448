// Endpoint discovery keeps one listing per model in flight. A listing slower than the
// discovery interval (a slow aggregator, its 30 s timeout) used to be joined by another at
// every tick, each holding a discovery connection, and a late answer to an older one could
// overwrite the endpoints a newer one had just set.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';

describe('endpoint discovery', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(); // chat-main's endpoints are discovered, the other models are direct
  });
  after(() => h.close());

  test('a refresh asked while one is in flight joins it: one listing reaches the aggregator', async () => {
    const before = h.fleet.stats().requests;
    await Promise.all([h.gateway.discover(), h.gateway.discover(), h.gateway.discover()]);
    assert.equal(h.fleet.stats().requests - before, 1);
    assert.ok(h.gateway.catalog.get('chat-main')!.routes.length > 0);
    await h.gateway.discover();
    assert.equal(h.fleet.stats().requests - before, 2, 'a refresh after it ends lists again');
  });
});
