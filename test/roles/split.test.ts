// The weighted split: a sticky key always lands on the same arm, the shares follow the
// weights, raising the candidate's weight only moves callers towards it, and without a key
// one random draw decides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Plan } from '../../src/routing/index.js';
import { armsOf, bucketOf, BUCKETS, chainFor, WeightedSplit } from '../../src/roles/index.js';

const plan = (name: string) => ({ name }) as unknown as Plan;
const split = (weight: number, random?: () => number) => new WeightedSplit('chat', armsOf(['main', 'small'], { candidate: 'new', weight }), [plan('new'), plan('main')], random);

test('arms: the candidate first with its weight; a weights map normalised to 100', () => {
  assert.deepEqual(armsOf(['main', 'small'], { candidate: 'new', weight: 10 }), [{ model: 'new', weight: 10 }, { model: 'main', weight: 90 }]);
  assert.deepEqual(armsOf(['main'], { weights: { main: 3, new: 1 } }), [{ model: 'main', weight: 75 }, { model: 'new', weight: 25 }]);
  assert.deepEqual(chainFor(['main', 'new', 'small'], 'new'), ['new', 'main', 'small']);
});

test('a key\u2019s bucket is stable, in range, and differs between roles', () => {
  assert.equal(bucketOf('chat', 'user-42'), bucketOf('chat', 'user-42'));
  let same = 0;
  for (let i = 0; i < 1_000; i++) {
    const b = bucketOf('chat', `user-${i}`);
    assert.ok(b >= 0 && b < BUCKETS && Number.isInteger(b));
    if (b === bucketOf('summary', `user-${i}`)) same++;
  }
  assert.ok(same < 5, 'roles draw their splits apart');
});

test('10% over 10,000 keys lands within 4 sigma, and each key keeps its arm', () => {
  const s = split(10);
  let candidate = 0;
  for (let i = 0; i < 10_000; i++) if (s.choose(`conversation-${i}`).name === 'new') candidate++;
  const sigma = Math.sqrt(10_000 * 0.1 * 0.9);
  assert.ok(Math.abs(candidate - 1_000) <= 4 * sigma, `${candidate} of 10,000 on the candidate`);
  for (let i = 0; i < 200; i++) assert.equal(s.choose(`conversation-${i}`).name, s.choose(`conversation-${i}`).name);
});

test('raising the weight only moves callers to the candidate', () => {
  const at10 = split(10);
  const at50 = split(50);
  for (let i = 0; i < 2_000; i++) {
    const key = `k${i}`;
    if (at10.choose(key).name === 'new') assert.equal(at50.choose(key).name, 'new');
  }
  assert.equal(split(0).choose('anyone').name, 'main');
  assert.equal(split(100).choose('anyone').name, 'new');
});

test('without a key, one random draw decides', () => {
  assert.equal(split(10, () => 0.05).choose(undefined).name, 'new');
  assert.equal(split(10, () => 0.1).choose(undefined).name, 'main');
  assert.equal(split(10, () => 0.99).choose('').name, 'main');
});
