// The dashboard's time series: every few seconds the sampler reads the metrics registry and
// turns the change of its running totals into one point per interval, kept in a bounded
// ring. Nothing is counted twice: the request path only feeds /metrics, as before.
import { parseRouteId } from '../catalog/index.js';
import { METRIC } from './metric-names.js';
import { Reading, type MetricFamily } from './reading.js';

export interface TimelinePoint {
  /** End of the interval, epoch ms (the gateway's clock). */
  at: number;
  seconds: number;
  /** Requests by the model of the route that answered or ended them. */
  requests: Record<string, number>;
  /** Role requests by the model of their first attempt. */
  firstAttempts: Record<string, number>;
  /** Requests that left their first route after a failure, by the model of that route. */
  fallbacks: Record<string, number>;
  /**
   * Per model with traffic in the interval: requests that fell back from it ÷ role requests
   * whose first attempt went to it (warden_fallbacks_total{from_model} ÷
   * warden_first_attempts_total{model}), at most 1.
   */
  fallbackRate: Record<string, number>;
  /** Mean time to the first token per route over the interval, ms (routes that streamed). */
  firstTokenMs: Record<string, number>;
  /** Breakers that opened in the interval, per route. */
  breakerOpenings: Record<string, number>;
}

export interface TimelineOptions {
  /** Points kept; older ones drop out (360 × 5 s = the last half hour). */
  keep?: number;
  /** Epoch ms the running totals started from (the gateway's start): the first point's interval begins here. */
  startedAt: number;
  /** The configured model of a route id; defaults to the id's `<model>@…` part. */
  modelOf?: (route: string) => string | null;
}

/** Pure: readings in, points out. */
export class Timeline {
  readonly #keep: number;
  readonly #modelOf: (route: string) => string | null;
  readonly #points: TimelinePoint[] = [];
  #last: Reading = Reading.of([]);
  #lastAt: number;

  constructor(options: TimelineOptions) {
    this.#keep = Math.max(1, options.keep ?? 360);
    this.#modelOf = options.modelOf ?? ((route) => parseRouteId(route)?.model ?? null);
    this.#lastAt = options.startedAt;
  }

  /** Folds the registry as read at `at` into a new point (counters start at zero with the gateway). */
  add(families: readonly MetricFamily[], at: number): TimelinePoint {
    const reading = Reading.of(families);
    const point = this.#point(reading.since(this.#last), at, Math.max(0, at - this.#lastAt) / 1000);
    this.#last = reading;
    this.#lastAt = at;
    this.#points.push(point);
    if (this.#points.length > this.#keep) this.#points.splice(0, this.#points.length - this.#keep);
    return point;
  }

  points(): TimelinePoint[] {
    return [...this.#points];
  }

  #point(delta: Reading, at: number, seconds: number): TimelinePoint {
    const requests = byModel(delta.sumBy(METRIC.requests, 'route'), this.#modelOf);
    const started = delta.sumBy(METRIC.firstAttempts, 'model');
    const leaving = delta.sumBy(METRIC.fallbacks, 'from_model');
    const fallbackRate: Record<string, number> = {};
    for (const model of new Set([...started.keys(), ...leaving.keys()])) {
      const out = leaving.get(model) ?? 0;
      // A first attempt is counted when it starts, its fallback when the request ends: the two
      // can fall in neighbouring intervals, so never above 1.
      const denominator = Math.max(started.get(model) ?? 0, out);
      if (denominator > 0) fallbackRate[model] = out / denominator;
    }
    const tokenSum = delta.sumBy(METRIC.firstTokenSum, 'route');
    const firstTokenMs: Record<string, number> = {};
    for (const [route, count] of delta.sumBy(METRIC.firstTokenCount, 'route')) {
      if (count > 0) firstTokenMs[route] = Math.round(((tokenSum.get(route) ?? 0) / count) * 1000);
    }
    // Openings have their own counter; before it existed, transitions to open said the same.
    const openings = delta.has(METRIC.breakerOpenings)
      ? delta.sumBy(METRIC.breakerOpenings, 'route')
      : delta.sumBy(METRIC.breakerTransitions, 'route', (l) => l.to === 'open');
    return { at, seconds, requests, firstAttempts: nonZero(started), fallbacks: nonZero(leaving), fallbackRate, firstTokenMs, breakerOpenings: nonZero(openings) };
  }
}

function byModel(byRoute: Map<string, number>, modelOf: (route: string) => string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [route, n] of byRoute) {
    const model = modelOf(route);
    if (model !== null && n > 0) out[model] = (out[model] ?? 0) + n;
  }
  return out;
}

function nonZero(map: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, n] of map) if (n > 0) out[k] = n;
  return out;
}

export interface SamplerOptions {
  /** Reads the registry: `() => metrics.registry.getMetricsAsJSON()`. */
  read: () => Promise<readonly MetricFamily[]>;
  /** The gateway's clock, so points carry the same time as audit events. */
  now: () => number;
  /** How often `start()` samples, ms (default 5 s). */
  everyMs?: number;
  keep?: number;
  modelOf?: (route: string) => string | null;
  onError?: (e: unknown) => void;
}

/** The timer around a Timeline. Tests call `sample()` themselves and never start it. */
export class TimelineSampler {
  readonly everyMs: number;
  readonly #timeline: Timeline;
  #timer: NodeJS.Timeout | null = null;
  #pending: Promise<TimelinePoint> | null = null;

  constructor(private readonly o: SamplerOptions) {
    this.everyMs = Math.max(100, o.everyMs ?? 5_000);
    this.#timeline = new Timeline({ keep: o.keep, startedAt: o.now(), modelOf: o.modelOf });
  }

  /** Reads the registry now and adds a point; a call while one reads joins it. */
  sample(): Promise<TimelinePoint> {
    this.#pending ??= this.o
      .read()
      .then((families) => this.#timeline.add(families, this.o.now()))
      .finally(() => (this.#pending = null));
    return this.#pending;
  }

  points(): TimelinePoint[] {
    return this.#timeline.points();
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.sample().catch((e: unknown) => this.o.onError?.(e)), this.everyMs);
    // The dashboard must never keep a process alive that is otherwise done.
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}
