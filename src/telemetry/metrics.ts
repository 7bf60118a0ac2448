// Prometheus metrics. Children are cached per label set so the hot path pays a Map lookup,
// not prom-client's label hashing, on every request.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type Outcome =
  | 'ok'
  | 'client_error'
  | 'rate_limited'
  | 'upstream_error'
  | 'timeout'
  | 'invalid_response'
  | 'stream_error'
  | 'client_aborted';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({ name: 'warden_requests_total', help: 'Chat completion requests by role, route and outcome', labelNames: ['role', 'route', 'outcome'], registers: [this.registry] });
  readonly #duration = new Histogram({ name: 'warden_request_duration_seconds', help: 'Time from request to the last byte of the answer', labelNames: ['role', 'route'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly #firstToken = new Histogram({ name: 'warden_first_token_seconds', help: 'Time from request to the first content token of a stream', labelNames: ['role', 'route'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly #rejected = new Counter({ name: 'warden_rejected_requests_total', help: 'Requests refused before reaching a route, by error code', labelNames: ['code'], registers: [this.registry] });
  #children = new Map<string, { requests: Map<Outcome, Counter.Internal>; duration: Histogram.Internal<string>; firstToken: Histogram.Internal<string> }>();

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'warden_' });
  }

  recordRequest(role: string, route: string, outcome: Outcome, seconds: number): void {
    const child = this.#child(role, route);
    let counter = child.requests.get(outcome);
    if (!counter) {
      counter = this.#requests.labels(role, route, outcome);
      child.requests.set(outcome, counter);
    }
    counter.inc();
    child.duration.observe(seconds);
  }

  recordFirstToken(role: string, route: string, seconds: number): void {
    this.#child(role, route).firstToken.observe(seconds);
  }

  recordRejected(code: string): void {
    this.#rejected.labels(code).inc();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  #child(role: string, route: string) {
    const key = `${role}\u0000${route}`;
    let child = this.#children.get(key);
    if (!child) {
      child = { requests: new Map(), duration: this.#duration.labels(role, route), firstToken: this.#firstToken.labels(role, route) };
      this.#children.set(key, child);
    }
    return child;
  }
}
