// Total-time limits of upstream exchanges, checked by one coarse timer for the whole process
// instead of a native timer per exchange: a setTimeout/clearTimeout pair per request was one
// of the larger costs left on the request path, and a total limit (seconds to minutes) needs
// no millisecond precision. A deadline fires within one tick after it passes.

/** Something that must stop at `at` (performance.now() milliseconds). */
export interface Deadline {
  readonly deadlineAt: number;
  expire(): void;
}

export class DeadlineTicker {
  readonly #items = new Set<Deadline>();
  #timer: NodeJS.Timeout | null = null;

  constructor(
    /** How often deadlines are checked: the most a deadline can fire late. */
    readonly tickMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** How many deadlines are waiting. */
  get size(): number {
    return this.#items.size;
  }

  add(item: Deadline): void {
    this.#items.add(item);
    if (this.#timer === null) {
      this.#timer = setInterval(() => this.tick(), this.tickMs);
      // A pending deadline alone does not keep the process alive: the exchange's socket does.
      this.#timer.unref();
    }
  }

  delete(item: Deadline): void {
    this.#items.delete(item);
  }

  /** Expires what is due; the interval stops once nothing waits (and starts again on add). */
  tick(): void {
    if (this.#items.size === 0) {
      if (this.#timer !== null) clearInterval(this.#timer);
      this.#timer = null;
      return;
    }
    const now = this.now();
    for (const item of this.#items) {
      if (item.deadlineAt > now) continue;
      this.#items.delete(item);
      item.expire();
    }
  }
}

/** Checked every 100 ms: total limits are configured in seconds (DESIGN.md timeouts). */
export const exchangeDeadlines = new DeadlineTicker(100);
