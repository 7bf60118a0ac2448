// Runs a canary round every interval (one at a time), and checks for lapsed quarantines in
// between so a route comes back on time. With several instances only the holder of the canary
// lease does either, so a round runs once however many instances there are; the lease lasts
// 1.5 intervals and is renewed at each tick, so when the leader dies another instance takes
// over at its first tick after the lease lapses. A round asked for by hand may still come to
// any instance: the runner's round lock (round-lock.ts) keeps it from overlapping this one.
// Timers are unref'd: they never keep a process up.
import { LocalCoordination, type Coordination } from '../state/index.js';
import type { Logger } from '../telemetry/index.js';
import { isCanaryError } from './errors.js';
import type { CanaryRunner } from './runner.js';

export const CANARY_LEASE = 'canary';

export class CanaryScheduler {
  #intervalMs: number;
  #round: NodeJS.Timeout | null = null;
  #expiry: NodeJS.Timeout | null = null;
  #leader = false;
  #stopped = false;
  /** Ticks in flight (one renews the lease while another's round still runs), awaited by stop(). */
  readonly #ticks = new Set<Promise<void>>();

  constructor(
    private readonly runner: CanaryRunner,
    intervalMs: number,
    private readonly log: Logger,
    private readonly coordination: Coordination = new LocalCoordination(),
  ) {
    this.#intervalMs = intervalMs;
  }

  /** Whether this instance held the canary lease at its last tick. */
  get leader(): boolean {
    return this.#leader;
  }

  start(): void {
    if (this.#round) return;
    this.#round = setInterval(() => {
      const tick = this.tick().finally(() => this.#ticks.delete(tick));
      this.#ticks.add(tick);
    }, this.#intervalMs);
    this.#round.unref();
    this.#expiry = setInterval(() => {
      if (this.#leader) this.runner.expireDue();
    }, Math.min(this.#intervalMs, 60_000));
    this.#expiry.unref();
  }

  /**
   * A new interval (a config reload): the next tick comes one new interval from now, and it
   * renews the lease for 1.5 new intervals; a round under way runs on.
   */
  reschedule(intervalMs: number): void {
    if (intervalMs === this.#intervalMs) return;
    this.#intervalMs = intervalMs;
    if (!this.#round || this.#stopped) return;
    this.#clearTimers();
    this.start();
  }

  /** One scheduled tick: renew or take the lease, and run a round when it is held. */
  async tick(): Promise<void> {
    const leader = await this.coordination.holdLease(CANARY_LEASE, this.#intervalMs * 1.5);
    if (leader !== this.#leader) this.log.info({ leader }, leader ? 'canary lease taken: this instance runs the rounds' : 'canary lease held by another instance');
    this.#leader = leader;
    if (!leader || this.#stopped) return;
    try {
      const report = await this.runner.runRound();
      this.log.info({ routes: report.routes.length, failed: report.routes.filter((r) => r.round.verdict === 'fail').map((r) => r.route) }, 'canary round done');
    } catch (e) {
      // A round asked for by hand (here or on another instance) is running: it probes what this one would.
      if (isCanaryError(e) && e.code === 'round_in_progress') this.log.info({ reason: e.message }, 'canary round skipped: another round is in progress');
      else if (!this.#stopped) this.log.error({ err: e }, 'canary round failed');
    }
  }

  /**
   * No tick starts any more; resolves once the ticks in flight are over (a round under way is
   * ended by the runner's own stop()) and the lease is handed back.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#clearTimers();
    await Promise.allSettled(this.#ticks);
    // Handing the lease back lets another instance run the next round without waiting for it to lapse.
    if (this.#leader) await this.coordination.releaseLease(CANARY_LEASE);
    this.#leader = false;
  }

  #clearTimers(): void {
    if (this.#round) clearInterval(this.#round);
    if (this.#expiry) clearInterval(this.#expiry);
    this.#round = this.#expiry = null;
  }
}
