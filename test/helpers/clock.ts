// A clock the test moves by hand. `sleep` advances it at once, so a Retry-After wait is
// honoured without the test waiting; `onSleep` lets a test change the world meanwhile, and
// `holdSleeps` keeps a wait open until it is aborted or `releaseSleeps` ends it.
import type { Clock } from '../../src/clock/index.js';

export class ManualClock implements Clock {
  onSleep: ((ms: number) => void) | null = null;
  /** When true, a sleep does not end on its own: only its signal's abort ends it (rejecting). */
  holdSleeps = false;
  readonly slept: number[] = [];
  readonly #held: Array<() => void> = [];

  constructor(private t = Date.UTC(2026, 10, 29, 12, 0, 0)) {}

  now(): number {
    return this.t;
  }

  advance(ms: number): void {
    this.t += ms;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.slept.push(ms);
    this.t += ms;
    this.onSleep?.(ms);
    if (!this.holdSleeps) return;
    await new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      this.#held.push(resolve);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }

  /** Ends every sleep held so far, as if its time had come (one aborted already stays rejected). */
  releaseSleeps(): void {
    for (const resolve of this.#held.splice(0)) resolve();
  }
}
