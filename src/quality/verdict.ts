// Small constructors so every detector builds verdicts the same way, and evidence stays short.
import type { Verdict } from './types.js';

type Extra = { detail?: string; evidence?: Record<string, unknown> };

export function pass(check: string, reason = 'ok', extra: Extra = {}): Verdict {
  return { check, verdict: 'pass', reason, ...extra };
}

export function fail(check: string, reason: string, extra: Extra = {}): Verdict {
  return { check, verdict: 'fail', reason, ...extra };
}

export function inconclusive(check: string, reason: string, extra: Extra = {}): Verdict {
  return { check, verdict: 'inconclusive', reason, ...extra };
}

const QUOTE_MAX = 60;

/** A span short enough to put in a log line or an alert; long spans keep their head and tail. */
export function quote(text: string, max = QUOTE_MAX): string {
  if (text.length <= max) return text;
  const half = (max - 1) >> 1;
  return `${text.slice(0, pairSafe(text, half))}…${text.slice(pairSafe(text, text.length - half))}`;
}

/** A cut position moved off the middle of a surrogate pair. */
function pairSafe(text: string, at: number): number {
  const c = text.charCodeAt(at);
  return c >= 0xdc00 && c <= 0xdfff ? at + 1 : at;
}

/** Quote a span with a little context either side, by code-unit offsets into `text`. */
export function quoteAt(text: string, start: number, end: number, context = 12): string {
  const from = pairSafe(text, Math.max(0, start - context));
  const to = pairSafe(text, Math.min(text.length, end + context));
  return quote(`${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`);
}
