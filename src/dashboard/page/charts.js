// Inline SVG charts over the timeline points: lines (fallback rate, first-token latency) and
// stacked bars (breaker openings). Each interval has a hover strip whose tooltip lists the
// values, which is where "model A's fallback rate jumped at time X" is read off.
import { el, svg } from './dom.js';
import { time } from './format.js';

// Close to the size a panel shows it at, so the 11 px labels stay readable.
const W = 420;
const H = 170;
const PAD = { left: 50, right: 8, top: 10, bottom: 22 };
const PALETTE = ['#2457c5', '#c2410c', '#15803d', '#9333ea', '#b91c1c', '#0e7490', '#a16207', '#be185d', '#4d7c0f', '#475569'];

/**
 * A colour per series: the name's hash slot, or the next free one, so series of one chart
 * differ while there are colours left, and a series keeps its colour from poll to poll.
 */
function colors(names) {
  const taken = new Map();
  const out = new Map();
  for (const name of names) {
    let h = 0;
    for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
    let slot = h % PALETTE.length;
    for (let tries = 0; tries < PALETTE.length && taken.has(slot); tries++) slot = (slot + 1) % PALETTE.length;
    taken.set(slot, name);
    out.set(name, PALETTE[slot]);
  }
  return out;
}

/**
 * `field` names a per-point record (`fallbackRate`, `firstTokenMs`, …); a series is each key
 * seen in it. `format` writes a value (`tick`, an axis label); `max` fixes the top of the y
 * axis (else the data's).
 */
export function renderChart(container, points, { field, kind = 'line', format, tick = format, max, empty, detail }) {
  const names = [...new Set(points.flatMap((p) => Object.keys(p[field] ?? {})))].sort();
  const palette = colors(names);
  const colorFor = (name) => palette.get(name);
  if (points.length === 0 || names.length === 0) {
    container.replaceChildren(el('p', { class: 'empty' }, empty));
    return;
  }
  const totals = points.map((p) => names.reduce((sum, n) => sum + (p[field]?.[n] ?? 0), 0));
  const highest = kind === 'bar' ? Math.max(...totals) : Math.max(...points.flatMap((p) => names.map((n) => p[field]?.[n] ?? 0)));
  const top = max ?? niceCeiling(highest);
  const first = points[0].at;
  const last = points[points.length - 1].at;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / points.length;
  const x = (i) => PAD.left + slot * (i + 0.5);
  const y = (v) => PAD.top + plotH - (Math.min(v, top) / top) * plotH;

  const layers = [];
  for (const value of [0, top / 2, top]) {
    layers.push(svg('line', { class: 'axis', x1: PAD.left, x2: W - PAD.right, y1: y(value), y2: y(value) }));
    layers.push(svg('text', { class: 'tick', x: PAD.left - 6, y: y(value) + 4, 'text-anchor': 'end' }, tick(value)));
  }
  layers.push(svg('text', { class: 'tick', x: PAD.left, y: H - 6 }, time(first)));
  if (points.length > 1) layers.push(svg('text', { class: 'tick', x: W - PAD.right, y: H - 6, 'text-anchor': 'end' }, time(last)));

  if (kind === 'bar') {
    points.forEach((p, i) => {
      let base = 0;
      for (const n of names) {
        const v = p[field]?.[n] ?? 0;
        if (v <= 0) continue;
        layers.push(svg('rect', { x: x(i) - slot * 0.4, width: Math.max(1, slot * 0.8), y: y(base + v), height: y(base) - y(base + v), fill: colorFor(n) }));
        base += v;
      }
    });
  } else {
    for (const n of names) {
      let d = '';
      let pen = false;
      points.forEach((p, i) => {
        const v = p[field]?.[n];
        // A gap (no traffic in the interval) breaks the line instead of drawing a zero.
        if (v === undefined || v === null) return void (pen = false);
        d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
        pen = true;
      });
      layers.push(svg('path', { d, fill: 'none', stroke: colorFor(n), 'stroke-width': 2, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }, svg('title', {}, n)));
      // A lone point between gaps would draw nothing: mark every point.
      points.forEach((p, i) => {
        const v = p[field]?.[n];
        if (v !== undefined && v !== null) layers.push(svg('circle', { cx: x(i), cy: y(v), r: 2.2, fill: colorFor(n) }));
      });
    }
  }
  points.forEach((p, i) => {
    const lines = names.filter((n) => p[field]?.[n] !== undefined).map((n) => `${n}: ${format(p[field][n])}${detail ? detail(p, n) : ''}`);
    layers.push(svg('rect', { class: 'hover', x: PAD.left + slot * i, y: PAD.top, width: slot, height: plotH, fill: 'transparent' }, svg('title', {}, [time(p.at), ...(lines.length ? lines : ['nothing in this interval'])].join('\n'))));
  });

  const latest = points[points.length - 1];
  container.replaceChildren(
    svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${names.length} series over ${points.length} intervals` }, layers),
    el('ul', { class: 'legend' }, names.map((n) => el('li', {}, el('span', { class: 'swatch', style: { background: colorFor(n) } }), `${n}${latest[field]?.[n] !== undefined ? ` · ${format(latest[field][n])}` : ''}`))),
  );
}

/** 1, 2 or 5 times a power of ten, at least the value (and at least 1). */
function niceCeiling(v) {
  if (!(v > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(v));
  for (const step of [1, 2, 5, 10]) if (step * power >= v) return step * power;
  return 10 * power;
}
