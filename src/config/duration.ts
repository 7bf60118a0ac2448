// Durations in config are written the way people say them ("30s", "10m", "1d", "250ms") or
// as a bare number of milliseconds.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;

/** Milliseconds for a duration, or null when the text is not one. */
export function parseDuration(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  const match = DURATION.exec(value.trim());
  if (!match) return null;
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
}
