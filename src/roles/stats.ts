// Side-by-side figures of a rollout's arms, counted at each request's end on this instance:
// a few additions per request and one slot of a latency ring; the median is computed when
// someone asks, not per request.
import type { PlanObserver, RequestEnd } from '../routing/index.js';

/** Latencies kept per arm for the median: the most recent ones. */
const LATENCY_SAMPLES = 1024;

export interface ArmFigures {
  model: string;
  weight: number;
  requests: number;
  /** Requests whose first route failed (and that fell back, or ended on the tier's answer). */
  fallbacks: number;
  fallbackRate: number;
  /** Requests with at least one answer the quality gate failed. */
  qualityFailures: number;
  qualityFailureRate: number;
  /** Requests that did not end `ok` (the tier's 503, default or degrade answer, stream errors). */
  errors: number;
  latencyP50Ms: number | null;
  costUsd: number;
}

export class ArmStats implements PlanObserver {
  requests = 0;
  fallbacks = 0;
  qualityFailures = 0;
  errors = 0;
  costUsd = 0;
  readonly #latencies = new Float64Array(LATENCY_SAMPLES);

  constructor(
    readonly model: string,
    readonly weight: number,
    /** Called after each request is counted (the automatic rules look then). */
    private readonly counted: (() => void) | null = null,
  ) {}

  ended(end: RequestEnd): void {
    this.#latencies[this.requests % LATENCY_SAMPLES] = end.latencyMs;
    this.requests++;
    if (end.failures > 0) this.fallbacks++;
    if (end.qualityFailures > 0) this.qualityFailures++;
    if (end.outcome !== 'ok') this.errors++;
    this.costUsd += end.costUsd;
    this.counted?.();
  }

  figures(): ArmFigures {
    const n = this.requests;
    return {
      model: this.model,
      weight: this.weight,
      requests: n,
      fallbacks: this.fallbacks,
      fallbackRate: rate(this.fallbacks, n),
      qualityFailures: this.qualityFailures,
      qualityFailureRate: rate(this.qualityFailures, n),
      errors: this.errors,
      latencyP50Ms: n === 0 ? null : median(this.#latencies.slice(0, Math.min(n, LATENCY_SAMPLES))),
      costUsd: Math.round(this.costUsd * 1e6) / 1e6,
    };
  }
}

const rate = (count: number, of: number) => (of === 0 ? 0 : count / of);

function median(values: Float64Array): number {
  values.sort();
  const mid = values.length >> 1;
  const m = values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
  return Math.round(m * 100) / 100;
}
