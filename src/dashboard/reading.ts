// One reading of the gateway's Prometheus registry, flattened to labelled numbers. The
// dashboard's time series and counterfactual numbers are computed from readings only, so
// the dashboard keeps no second copy of request state: /metrics stays the one source.

/** The part of prom-client's `registry.getMetricsAsJSON()` this folder reads (structural, so the logic stays pure). */
export interface MetricFamily {
  name: string;
  /** `'gauge'`, `'counter'`, … at run time (prom-client's typings declare a numeric enum). */
  type?: unknown;
  values: ReadonlyArray<{ value: number; labels: Readonly<Record<string, string | number | undefined>>; metricName?: string }>;
}

export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  labels: Labels;
  value: number;
}

const SEP = '\u0000';

export class Reading {
  /** metric name → series key → sample. Histograms appear as their `_sum` and `_count` metrics. */
  readonly #metrics = new Map<string, Map<string, Sample>>();
  /** Metrics that are levels, not running totals: a difference of two readings keeps their last value. */
  readonly #gauges = new Set<string>();

  static of(families: readonly MetricFamily[]): Reading {
    const reading = new Reading();
    for (const family of families) {
      if (family.type === 'gauge') reading.#gauges.add(family.name);
      for (const v of family.values) {
        const name = v.metricName ?? family.name;
        // Buckets are not read: means come from _sum / _count, and they are most of the volume.
        if (name.endsWith('_bucket') || !Number.isFinite(v.value)) continue;
        const labels: Record<string, string> = {};
        for (const [k, value] of Object.entries(v.labels)) if (value !== undefined) labels[k] = String(value);
        reading.#put(name, labels, v.value);
      }
    }
    return reading;
  }

  has(metric: string): boolean {
    return this.#metrics.has(metric);
  }

  samples(metric: string): Sample[] {
    return [...(this.#metrics.get(metric)?.values() ?? [])];
  }

  /** The metric's values summed per value of one label, over the samples `where` keeps. */
  sumBy(metric: string, label: string, where: (labels: Labels) => boolean = () => true): Map<string, number> {
    const sums = new Map<string, number>();
    for (const s of this.#metrics.get(metric)?.values() ?? []) {
      const key = s.labels[label];
      if (key === undefined || !where(s.labels)) continue;
      sums.set(key, (sums.get(key) ?? 0) + s.value);
    }
    return sums;
  }

  total(metric: string, where: (labels: Labels) => boolean = () => true): number {
    let sum = 0;
    for (const s of this.#metrics.get(metric)?.values() ?? []) if (where(s.labels)) sum += s.value;
    return sum;
  }

  /**
   * What happened between `before` and this reading: per series, the difference of running
   * totals. A total that went down was reset (a restart), so it counts from zero, as
   * Prometheus' own rate() does. Gauges keep their current value.
   */
  since(before: Reading): Reading {
    const delta = new Reading();
    for (const [name, series] of this.#metrics) {
      const gauge = this.#gauges.has(name);
      if (gauge) delta.#gauges.add(name);
      const previous = before.#metrics.get(name);
      for (const [key, s] of series) {
        const was = previous?.get(key)?.value ?? 0;
        delta.#put(name, s.labels, gauge || s.value < was ? s.value : s.value - was);
      }
    }
    return delta;
  }

  #put(name: string, labels: Labels, value: number): void {
    let series = this.#metrics.get(name);
    if (!series) {
      series = new Map();
      this.#metrics.set(name, series);
    }
    const key = Object.keys(labels).sort().map((k) => `${k}=${labels[k]}`).join(SEP);
    const existing = series.get(key);
    series.set(key, { labels, value: (existing?.value ?? 0) + value });
  }
}
