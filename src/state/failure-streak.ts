// A store's run of failed operations: counted for `errors`, reported as `degraded` with the
// latest reason while it lasts, and told apart at its start and its end, which are the only
// moments worth a log line (a store that refuses every write must not log every write).

export class FailureStreak {
  /** Operations that failed since open. */
  errors = 0;
  /** Held rows dropped (the backlog was full) during the streak. */
  dropped = 0;
  #length = 0;
  #latest = '';

  /** Counts a failure; true when it starts a streak. */
  fail(reason: string): boolean {
    this.errors++;
    this.#latest = reason;
    return this.#length++ === 0;
  }

  /** Counts an operation that failed on its own, without starting a streak (an unreadable row). */
  miss(): void {
    this.errors++;
  }

  /** Ends the streak; how long it was and what it dropped, or null when there was none. */
  end(): { failed: number; dropped: number } | null {
    if (this.#length === 0) return null;
    const ended = { failed: this.#length, dropped: this.dropped };
    this.#length = 0;
    this.dropped = 0;
    return ended;
  }

  get active(): boolean {
    return this.#length > 0;
  }

  /** The latest failure while the streak lasts, else null. */
  get reason(): string | null {
    return this.#length > 0 ? this.#latest : null;
  }
}
