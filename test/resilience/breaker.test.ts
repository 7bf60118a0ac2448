import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Breaker, parseRetryAfter, WaitBudget, classifyStatus, type BreakerPolicy } from '../../src/resilience/index.js';

const POLICY: BreakerPolicy = { failures: 5, cooldown: 30_000, maxCooldown: 600_000, window: 60_000, minCalls: 20, failureRate: 0.5, probeTimeout: 60_000 };

test('five consecutive transport failures open the breaker; a success in between resets the count', () => {
  const b = new Breaker(POLICY);
  for (let i = 0; i < 4; i++) assert.equal(b.failure(1000 + i, false, '503'), null);
  b.success(1010, false);
  for (let i = 0; i < 4; i++) assert.equal(b.failure(2000 + i, false, '503'), null);
  const t = b.failure(2010, false, 'upstream answered 503');
  assert.equal(t?.to, 'open');
  assert.match(t!.cause, /5 consecutive transport failures, last: upstream answered 503/);
  assert.equal(t?.retryAt, 2010 + 30_000);
  assert.deepEqual(b.admit(2011).admission, { admitted: false, retryAt: 32_010 });
});

test('after the cooldown exactly one probe goes through; its success closes, its failure reopens longer', () => {
  const b = new Breaker(POLICY);
  for (let i = 0; i < 5; i++) b.failure(0, false, 'x');
  const first = b.admit(30_000);
  assert.deepEqual(first.admission, { admitted: true, probe: true });
  assert.equal(first.transition?.to, 'half_open');
  assert.equal(b.admit(30_001).admission.admitted, false, 'a second request does not probe');
  const reopened = b.failure(30_500, true, 'timeout');
  assert.equal(reopened?.to, 'open');
  assert.equal(reopened?.retryAt, 30_500 + 60_000, 'the cooldown doubled');
  assert.equal(b.admit(90_500).admission.admitted, true);
  const closed = b.success(91_000, true);
  assert.equal(closed?.to, 'closed');
  assert.equal(closed?.probes, 2, 'it took two probes');
  assert.equal(closed?.openMs, 91_000);
});

test('a probe that never reports frees the slot after probeTimeout', () => {
  const b = new Breaker({ ...POLICY, probeTimeout: 5_000 });
  for (let i = 0; i < 5; i++) b.failure(0, false, 'x');
  assert.equal(b.admit(30_000).admission.admitted, true);
  assert.equal(b.admit(34_999).admission.admitted, false);
  assert.deepEqual(b.admit(35_000).admission, { admitted: true, probe: true });
});

test('the failure-rate rule opens on a window with enough calls', () => {
  const b = new Breaker({ ...POLICY, failures: 100, minCalls: 10, failureRate: 0.5 });
  let opened = null;
  for (let i = 0; i < 10 && !opened; i++) {
    b.success(i * 10, false);
    opened = b.failure(i * 10 + 5, false, 'reset');
  }
  assert.equal(opened?.to, 'open');
  assert.match(opened!.cause, /failure rate 50%/);
});

test('state round-trips through JSON', () => {
  const b = new Breaker(POLICY);
  for (let i = 0; i < 5; i++) b.failure(0, false, 'x');
  const copy = new Breaker(POLICY, JSON.parse(JSON.stringify(b.toJSON())));
  assert.equal(copy.state, 'open');
  assert.deepEqual(copy.admit(1).admission, b.admit(1).admission);
});

test('outcome classes: only 5xx, 408 and 529 are transport; 401/403 are config', () => {
  assert.deepEqual([200, 400, 404, 422, 401, 403, 429, 408, 500, 503, 529].map(classifyStatus), ['ok', 'client', 'client', 'client', 'config', 'config', 'rate_limited', 'transport', 'transport', 'transport', 'transport']);
});

test('Retry-After in seconds or as an HTTP date; the budget caps each wait and the total', () => {
  assert.equal(parseRetryAfter('1', 0), 1000);
  assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')), 10_000);
  assert.equal(parseRetryAfter('soon', 0), null);
  assert.equal(parseRetryAfter(undefined, 0), null);
  const budget = new WaitBudget(5_000, 8_000);
  assert.equal(budget.allow(120_000), null, 'over the per-attempt cap: move on');
  assert.equal(budget.allow(4_000), 4_000);
  assert.equal(budget.allow(4_000), 4_000);
  assert.equal(budget.allow(1), null, 'the budget is spent');
});

test('reopensAt says when a refusing breaker admits again, and starts no probe asking', () => {
  const b = new Breaker({ ...POLICY, probeTimeout: 5_000 });
  assert.equal(b.reopensAt(0), null, 'closed: admits now');
  for (let i = 0; i < 5; i++) b.failure(0, false, 'x');
  assert.equal(b.reopensAt(10_000), 30_000);
  assert.equal(b.reopensAt(10_000), 30_000, 'asking twice changes nothing');
  assert.equal(b.reopensAt(30_000), null, 'cooldown over: the next request probes');
  assert.equal(b.state, 'open', 'asking did not start the probe');
  assert.equal(b.admit(30_000).admission.admitted, true);
  assert.equal(b.reopensAt(31_000), 35_000, 'half open with its probe out: when the probe slot frees');
});
