// What the fleet has seen: counters, open requests and streams, and a log of recent requests.
// Tests synchronise on it through waitFor, which listens for changes instead of polling.
import { EventEmitter } from 'node:events';
import { FAULT_NAMES, type FaultName } from './faults.js';

export interface RecentRequest {
  at: number;
  path: string;
  model: string;
  /** The provider that answered (even with an error), null when none was reached. */
  served: string | null;
  stream: boolean;
  /** The request's `provider` object as received, or null. */
  providerPrefs: unknown;
  /** The whole parsed request body as received (tests check what a gateway sent), or null. */
  body: unknown;
  /** 0 when the request ended before any response headers (hang, client gone). */
  status: number;
  fault: string | null;
  /** Providers that failed before this one answered (OpenRouter fallback), in order. */
  tried: string[];
  /** Entries of the request's provider order / only / ignore that named no provider of the model (OpenRouter drops them silently). */
  unmatchedProviders: string[];
}

export interface ProviderStats {
  requests: number;
  streams: number;
  openStreams: number;
  faults: Record<string, number>;
}

export interface FleetStats {
  requests: number;
  openRequests: number;
  openStreams: number;
  providers: Record<string, ProviderStats>;
  recent: RecentRequest[];
}

const RECENT_LIMIT = 100;

export class StatsBook {
  #requests = 0;
  #openRequests = 0;
  #openStreams = 0;
  #providers = new Map<string, ProviderStats>();
  #recent: RecentRequest[] = [];
  readonly #events = new EventEmitter().setMaxListeners(0);

  constructor(private readonly providerNames: readonly string[]) {
    this.reset();
  }

  requestStarted(): void {
    this.#requests++;
    this.#openRequests++;
    this.#changed();
  }

  requestEnded(entry: RecentRequest): void {
    this.#openRequests--;
    this.#recent.push(entry);
    if (this.#recent.length > RECENT_LIMIT) this.#recent.shift();
    this.#changed();
  }

  /** One attempt at a provider; an OpenRouter request may make several. */
  attempted(provider: string, fault: FaultName | null): void {
    const p = this.#provider(provider);
    p.requests++;
    if (fault !== null) p.faults[fault] = (p.faults[fault] ?? 0) + 1;
    this.#changed();
  }

  streamOpened(provider: string): void {
    const p = this.#provider(provider);
    p.streams++;
    p.openStreams++;
    this.#openStreams++;
    this.#changed();
  }

  streamClosed(provider: string): void {
    this.#provider(provider).openStreams--;
    this.#openStreams--;
    this.#changed();
  }

  /** Zeroes counters and the log; open requests and streams stay as they are, they are real. */
  reset(): void {
    this.#requests = 0;
    this.#recent = [];
    const open = new Map([...this.#providers].map(([name, p]) => [name, p.openStreams]));
    this.#providers = new Map(this.providerNames.map((name) => [name, emptyProvider(open.get(name) ?? 0)]));
    this.#changed();
  }

  snapshot(): FleetStats {
    const providers: Record<string, ProviderStats> = {};
    for (const [name, p] of this.#providers) providers[name] = { ...p, faults: { ...p.faults } };
    return {
      requests: this.#requests,
      openRequests: this.#openRequests,
      openStreams: this.#openStreams,
      providers,
      recent: this.#recent.map((entry) => ({ ...entry })),
    };
  }

  waitFor(predicate: (s: FleetStats) => boolean, timeoutMs = 5000): Promise<FleetStats> {
    const now = this.snapshot();
    if (predicate(now)) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      let last = now;
      const onChange = () => {
        last = this.snapshot();
        let holds: boolean;
        try {
          holds = predicate(last);
        } catch (e) {
          done();
          reject(e);
          return;
        }
        if (!holds) return;
        done();
        resolve(last);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`fleet.waitFor timed out after ${timeoutMs} ms; last stats: ${JSON.stringify(last)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#events.off('change', onChange);
      };
      this.#events.on('change', onChange);
    });
  }

  #changed(): void {
    // Snapshots are only worth building while someone waits; the hot path pays nothing else.
    if (this.#events.listenerCount('change') > 0) this.#events.emit('change');
  }

  #provider(name: string): ProviderStats {
    let p = this.#providers.get(name);
    if (!p) this.#providers.set(name, (p = emptyProvider(0)));
    return p;
  }
}

function emptyProvider(openStreams: number): ProviderStats {
  const faults: Record<string, number> = {};
  for (const name of FAULT_NAMES) faults[name] = 0;
  return { requests: 0, streams: 0, openStreams, faults };
}
