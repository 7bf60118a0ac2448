// Runs a canary round every interval (one at a time), and checks for lapsed quarantines in
// between so a route comes back on time. Timers are unref'd: they never keep a process up.
import type { Logger } from '../telemetry/index.js';
import type { CanaryRunner } from './runner.js';

export class CanaryScheduler {
  #round: NodeJS.Timeout | null = null;
  #expiry: NodeJS.Timeout | null = null;

  constructor(
    private readonly runner: CanaryRunner,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.#round) return;
    const run = () =>
      this.runner.runRound().then(
        (report) => this.log.info({ routes: report.routes.length, failed: report.routes.filter((r) => r.round.verdict === 'fail').map((r) => r.route) }, 'canary round done'),
        (e: unknown) => this.log.error({ err: e }, 'canary round failed'),
      );
    this.#round = setInterval(run, this.intervalMs);
    this.#round.unref();
    this.#expiry = setInterval(() => this.runner.expireDue(), Math.min(this.intervalMs, 60_000));
    this.#expiry.unref();
  }

  stop(): void {
    if (this.#round) clearInterval(this.#round);
    if (this.#expiry) clearInterval(this.#expiry);
    this.#round = this.#expiry = null;
  }
}
