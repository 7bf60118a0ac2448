// 429 handling: Retry-After in seconds or as an HTTP date, waited out only when it fits
// under a per-attempt cap and what is left of the request's cumulative wait budget.

/** Milliseconds to wait, or null when the header is absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export class WaitBudget {
  #spent = 0;

  constructor(
    private readonly perAttemptCap: number,
    private readonly total: number,
  ) {}

  /** The wait to honour, or null to move on to the next route now. */
  allow(waitMs: number | null): number | null {
    if (waitMs === null || waitMs > this.perAttemptCap || this.#spent + waitMs > this.total) return null;
    this.#spent += waitMs;
    return waitMs;
  }

  get spent(): number {
    return this.#spent;
  }
}
