// The per-provider concurrency quota split between instances.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConcurrencyQuota } from '../../src/resilience/index.js';

test('one instance has the whole quota; slots come back on release', () => {
  const quota = new ConcurrencyQuota(new Map([['p', 3]]));
  assert.deepEqual([quota.take('p'), quota.take('p'), quota.take('p'), quota.take('p')], [true, true, true, false]);
  quota.release('p');
  assert.equal(quota.inFlight('p'), 2);
  assert.equal(quota.take('p'), true);
  assert.equal(quota.take('other'), true, 'a provider without a quota is never refused');
  quota.release('other');
  assert.equal(quota.inFlight('other'), 0);
});

test('shares never add up to more than the quota, and are at least one slot', () => {
  const quota = new ConcurrencyQuota(new Map([['p', 10], ['tiny', 2]]));
  quota.setInstances(3);
  assert.equal(quota.share('p'), 3);
  assert.equal(quota.share('tiny'), 1);
  quota.setInstances(1);
  assert.equal(quota.share('p'), 10);
  assert.equal(quota.share('none'), null);
});
