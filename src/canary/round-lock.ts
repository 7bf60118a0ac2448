// One canary round at a time across every instance. The scheduled rounds already run only on
// the lease holder, but a round asked for by hand (POST /admin/canary/run) can come to any
// instance: without a lock it would probe the providers a second time and judge the same
// routes beside the leader's round, both writing decisions. Every round therefore holds the
// `canary-round` lease of the shared store while it runs (on one instance the local
// coordination grants it at once, and the runner's own one-round rule is what holds). The
// lease is renewed while the round runs and handed back at its end; a holder that dies frees
// it by expiry.
import type { Coordination } from '../state/index.js';

export const CANARY_ROUND_LEASE = 'canary-round';
/**
 * Short, so a holder killed mid-round blocks the next leader's round for seconds only (the
 * canary lease itself may lapse within one interval); renewed five times per lifetime, so a
 * late renewal or two does not lose it.
 */
const LOCK_TTL_MS = 5_000;
const RENEW_EVERY_MS = LOCK_TTL_MS / 5;

export class RoundLock {
  constructor(private readonly coordination: Coordination) {}

  /** Takes the lock; null when another instance's round holds it, else what hands it back. */
  async take(): Promise<(() => Promise<void>) | null> {
    if (!(await this.coordination.holdLease(CANARY_ROUND_LEASE, LOCK_TTL_MS))) return null;
    const renew = setInterval(() => void this.coordination.holdLease(CANARY_ROUND_LEASE, LOCK_TTL_MS), RENEW_EVERY_MS);
    renew.unref();
    return async () => {
      clearInterval(renew);
      await this.coordination.releaseLease(CANARY_ROUND_LEASE);
    };
  }
}
