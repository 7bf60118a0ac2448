import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DeadlineTicker, type Deadline } from '../../src/upstream/deadlines.js';

function deadline(at: number, fired: number[]): Deadline {
  return { deadlineAt: at, expire: () => fired.push(at) };
}

test('a tick expires exactly the deadlines that have passed, once each', () => {
  let now = 0;
  const ticker = new DeadlineTicker(100, () => now);
  const fired: number[] = [];
  const early = deadline(150, fired);
  const late = deadline(1_000, fired);
  const removed = deadline(120, fired);
  ticker.add(early);
  ticker.add(late);
  ticker.add(removed);
  ticker.delete(removed); // the exchange ended before its limit
  now = 100;
  ticker.tick();
  assert.deepEqual(fired, []);
  now = 200;
  ticker.tick();
  assert.deepEqual(fired, [150]);
  assert.equal(ticker.size, 1);
  now = 1_000;
  ticker.tick();
  ticker.tick();
  assert.deepEqual(fired, [150, 1_000]);
  assert.equal(ticker.size, 0);
});

test('an expiry that ends another exchange, or adds one, is handled within the same tick', () => {
  let now = 0;
  const ticker = new DeadlineTicker(100, () => now);
  const fired: string[] = [];
  const other: Deadline = { deadlineAt: 50, expire: () => fired.push('other') };
  const first: Deadline = {
    deadlineAt: 50,
    expire: () => {
      fired.push('first');
      ticker.delete(other);
      ticker.add({ deadlineAt: 5_000, expire: () => fired.push('new') });
    },
  };
  ticker.add(first);
  ticker.add(other);
  now = 100;
  ticker.tick();
  assert.deepEqual(fired, ['first']);
  assert.equal(ticker.size, 1);
});
