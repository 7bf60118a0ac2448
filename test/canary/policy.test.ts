// The canary policy: the seeds' numbers by default, and no policy the ladder could not run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_CANARY_POLICY, canaryPolicy, isCanaryError } from '../../src/canary/index.js';
import { DAY } from './fixtures.js';

describe('canaryPolicy', () => {
  it("defaults to seed 000's numbers, observing first", () => {
    assert.deepEqual(canaryPolicy(), {
      mode: 'observe',
      firstTokenLimitMs: 10_000,
      failedRoundsToQuarantine: 2,
      cleanRoundsToRelease: 2,
      ladder: [DAY, 3 * DAY, 7 * DAY],
      forgiveAfter: 14 * DAY,
      capacityFloor: 2,
      languages: ['en'],
    });
  });

  it('takes overrides without sharing arrays with the defaults', () => {
    const policy = canaryPolicy({ mode: 'enforce', languages: ['pt'] });
    assert.equal(policy.mode, 'enforce');
    policy.ladder.push(DAY);
    assert.equal(DEFAULT_CANARY_POLICY.ladder.length, 3);
  });

  it('refuses an empty ladder, a zero threshold or a non-positive limit', () => {
    for (const bad of [{ ladder: [] }, { ladder: [0] }, { failedRoundsToQuarantine: 0 }, { cleanRoundsToRelease: 1.5 }, { firstTokenLimitMs: 0 }, { capacityFloor: -1 }]) {
      assert.throws(() => canaryPolicy(bad), (e) => isCanaryError(e) && e.code === 'invalid_policy', JSON.stringify(bad));
    }
  });
});
