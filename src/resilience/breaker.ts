// A three-state circuit breaker for one route, as pure state: no timers, no I/O. The
// caller passes the time in; every change is returned as a transition with its cause, and
// the whole state is a small JSON object so it can be stored and shared.

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerPolicy {
  /** Consecutive transport failures that open the breaker. */
  failures: number;
  /** First cooldown; it doubles on each reopening, up to maxCooldown. */
  cooldown: number;
  maxCooldown: number;
  /** Failure-rate rule: over the last `window` ms, at least `minCalls` calls and a share of failures ≥ `failureRate`. */
  window: number;
  minCalls: number;
  failureRate: number;
  /** How long a half-open probe may take before another request may probe. */
  probeTimeout: number;
}

export interface BreakerSnapshot {
  state: BreakerState;
  consecutiveFailures: number;
  /** Cooldown level: 0 for the first opening, +1 for each reopening soon after. */
  level: number;
  openedAt: number | null;
  /** When an open breaker lets a probe through. */
  retryAt: number | null;
  /** A half-open probe in flight, and when it stops counting as such. */
  probeUntil: number | null;
  closedAt: number | null;
  /** Recovery probes since the breaker last opened from closed (1 at close = recovered on the first try). */
  probes: number;
  /** Recent calls for the failure-rate rule: [time, 1 = failure | 0 = success]. */
  recent: Array<[number, 0 | 1]>;
}

export interface Transition {
  from: BreakerState;
  to: BreakerState;
  cause: string;
  at: number;
  retryAt: number | null;
  /** For closings: probes it took; for openings from closed: how long the route had been closed is not tracked. */
  probes: number;
  /** For closings: how long the breaker was not closed, in ms. */
  openMs: number | null;
}

export type Admission = { admitted: true; probe: boolean } | { admitted: false; retryAt: number };

export const INITIAL_BREAKER: BreakerSnapshot = {
  state: 'closed',
  consecutiveFailures: 0,
  level: 0,
  openedAt: null,
  retryAt: null,
  probeUntil: null,
  closedAt: null,
  probes: 0,
  recent: [],
};

export class Breaker {
  #s: BreakerSnapshot;

  constructor(
    private readonly policy: BreakerPolicy,
    snapshot: BreakerSnapshot = INITIAL_BREAKER,
  ) {
    this.#s = { ...snapshot, recent: [...snapshot.recent] };
  }

  get state(): BreakerState {
    return this.#s.state;
  }

  toJSON(): BreakerSnapshot {
    return { ...this.#s, recent: [...this.#s.recent] };
  }

  /** Whether a request may use the route now. Side effect: may start a half-open probe. */
  admit(now: number): { admission: Admission; transition: Transition | null } {
    const s = this.#s;
    if (s.state === 'closed') return { admission: { admitted: true, probe: false }, transition: null };
    if (s.state === 'open') {
      if (now < s.retryAt!) return { admission: { admitted: false, retryAt: s.retryAt! }, transition: null };
      const transition = this.#move('half_open', 'cooldown over: one request probes the route', now);
      s.probeUntil = now + this.policy.probeTimeout;
      s.probes++;
      return { admission: { admitted: true, probe: true }, transition };
    }
    // half_open: exactly one probe at a time; a probe that never reported frees the slot.
    if (s.probeUntil !== null && now < s.probeUntil) return { admission: { admitted: false, retryAt: s.probeUntil }, transition: null };
    s.probeUntil = now + this.policy.probeTimeout;
    s.probes++;
    return { admission: { admitted: true, probe: true }, transition: null };
  }

  /** When `admit` lets a request through again (no side effect); null when it would now. */
  reopensAt(now: number): number | null {
    const s = this.#s;
    if (s.state === 'open') return now < s.retryAt! ? s.retryAt! : null;
    if (s.state === 'half_open' && s.probeUntil !== null && now < s.probeUntil) return s.probeUntil;
    return null;
  }

  /** True when `admit` would let a request through (no side effect). */
  wouldAdmit(now: number): boolean {
    const s = this.#s;
    if (s.state === 'closed') return true;
    if (s.state === 'open') return now >= s.retryAt!;
    return s.probeUntil === null || now >= s.probeUntil;
  }

  success(now: number, probe: boolean): Transition | null {
    const s = this.#s;
    s.consecutiveFailures = 0;
    this.#remember(now, 0);
    if (s.state === 'half_open' && probe) {
      s.probeUntil = null;
      return this.#move('closed', 'recovery probe succeeded', now);
    }
    return null;
  }

  /** A transport failure (never a 4xx or a quality failure: those say nothing of availability). */
  failure(now: number, probe: boolean, cause: string): Transition | null {
    const s = this.#s;
    s.consecutiveFailures++;
    this.#remember(now, 1);
    if (s.state === 'half_open' && probe) {
      s.level++;
      s.probeUntil = null;
      return this.#open(now, `recovery probe failed: ${cause}`);
    }
    if (s.state !== 'closed') return null;
    if (s.consecutiveFailures >= this.policy.failures) return this.#open(now, `${s.consecutiveFailures} consecutive transport failures, last: ${cause}`);
    const rate = this.#failureRate(now);
    if (rate !== null && rate >= this.policy.failureRate) return this.#open(now, `failure rate ${(rate * 100).toFixed(0)}% over the window, last: ${cause}`);
    return null;
  }

  #open(now: number, cause: string): Transition {
    const s = this.#s;
    // Opening again soon after closing means the route did not really recover: wait longer.
    if (s.state === 'closed') s.level = s.closedAt !== null && now - s.closedAt < this.policy.maxCooldown ? s.level + 1 : 0;
    const cooldown = Math.min(this.policy.cooldown * 2 ** s.level, this.policy.maxCooldown);
    return this.#move('open', cause, now, now + cooldown);
  }

  #move(to: BreakerState, cause: string, now: number, retryAt: number | null = null): Transition {
    const s = this.#s;
    const from = s.state;
    const probes = s.probes;
    const openMs = to === 'closed' && s.openedAt !== null ? now - s.openedAt : null;
    s.state = to;
    if (to === 'open') {
      // openedAt marks the start of the outage: a reopening from half_open keeps it.
      if (from === 'closed') {
        s.openedAt = now;
        s.probes = 0;
      }
      s.retryAt = retryAt;
    } else if (to === 'closed') {
      s.closedAt = now;
      s.openedAt = null;
      s.retryAt = null;
      s.consecutiveFailures = 0;
      s.probes = 0;
      s.recent = [];
    }
    return { from, to, cause, at: now, retryAt: s.retryAt, probes, openMs };
  }

  #remember(now: number, failed: 0 | 1): void {
    const recent = this.#s.recent;
    recent.push([now, failed]);
    const horizon = now - this.policy.window;
    while (recent.length > 0 && (recent[0]![0] < horizon || recent.length > 200)) recent.shift();
  }

  #failureRate(now: number): number | null {
    const horizon = now - this.policy.window;
    let calls = 0;
    let failures = 0;
    for (const [at, failed] of this.#s.recent) {
      if (at < horizon) continue;
      calls++;
      failures += failed;
    }
    return calls >= this.policy.minCalls ? failures / calls : null;
  }
}
