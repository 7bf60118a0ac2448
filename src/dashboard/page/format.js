// How numbers and times read on the page. Times are the gateway's clock (it may run in
// another zone or, in tests, be set by hand): "in 3 h" is measured against the snapshot's `at`.
import { el } from './dom.js';

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });

export const time = (ms) => (ms === null || ms === undefined ? '—' : clock.format(new Date(ms)));
export const dateTime = (ms) => (ms === null || ms === undefined ? '—' : day.format(new Date(ms)));

/** A span in the largest two units: `1 d 4 h`, `12 min`, `40 s`. */
export function span(ms) {
  const s = Math.round(Math.abs(ms) / 1000);
  const units = [['d', 86400], ['h', 3600], ['min', 60], ['s', 1]];
  const parts = [];
  let rest = s;
  for (const [name, size] of units) {
    if (rest >= size || (parts.length === 0 && size === 1)) {
      parts.push(`${Math.floor(rest / size)} ${name}`);
      rest %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

export function relative(ms, now) {
  if (ms === null || ms === undefined) return '';
  return ms >= now ? `in ${span(ms - now)}` : `${span(now - ms)} ago`;
}

/**
 * `relative` as a node the page rewrites at every poll (`tickRelative`): a panel is redrawn
 * only when its data changes, and "retry in 20 s" must not still say so a minute later.
 * `due`: what to say once the time has come (an open breaker waits for a request to probe it,
 * and "retry 2 min ago" would read as if it had been tried).
 */
export function relativeNode(ms, now, { prefix = '', due = '' } = {}) {
  const node = el('span', { class: 'relative', dataset: { at: String(ms), prefix, due } });
  node.textContent = relativeText(node, now);
  return node;
}

export function tickRelative(root, now) {
  for (const node of root.querySelectorAll('span.relative[data-at]')) {
    const text = relativeText(node, now);
    if (node.textContent !== text) node.textContent = text;
  }
}

function relativeText(node, now) {
  const { at, prefix, due } = node.dataset;
  return due && Number(at) <= now ? due : prefix + relative(Number(at), now);
}

/** A share as a percentage; one that is neither none nor all never reads as 0% or 100%. */
export function percent(x) {
  if (x === null || x === undefined) return '—';
  const p = x * 100;
  if (p > 0 && p < 0.1) return '<0.1%';
  if (p > 99.9 && p < 100) return '>99.9%';
  return `${(p > 0 && p < 10) || (p > 90 && p < 100) ? p.toFixed(1) : Math.round(p)}%`;
}

export const count = (n) => (n === null || n === undefined ? '—' : Math.round(n).toLocaleString());

/** Dollars; a cost that is not zero never reads as `$0.0000` (that is what free looks like). */
export function usd(x, digits = 4) {
  if (x === null || x === undefined) return '—';
  const smallest = 10 ** -digits;
  if (x > 0 && x < smallest / 2) return `<$${smallest.toFixed(digits)}`;
  return `$${x.toFixed(x >= 100 ? 2 : digits)}`;
}

export const ms = (x) => (x === null || x === undefined ? '—' : `${Math.round(x).toLocaleString()} ms`);
