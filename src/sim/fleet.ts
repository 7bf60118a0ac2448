// Starts the simulated fleet: one node:http server playing every provider of a scenario,
// with the controls tests and the demo use (stats, faults, reset, waitFor, close).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Faults } from './faults.js';
import { SimProvider } from './provider.js';
import { PriceBalancer } from './openrouter.js';
import { ReplyCache } from './reply-cache.js';
import { handleRequest, findProvider, type RouteContext } from './routes.js';
import { parseFaults, type Scenario } from './scenario.js';
import { StatsBook, type FleetStats } from './stats.js';

export interface FleetOptions {
  scenario: Scenario;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface Fleet {
  /** http://HOST:PORT */
  readonly url: string;
  /** `${url}/api/v1`: the OpenRouter-style aggregator. */
  readonly openrouterBaseUrl: string;
  /** `${url}/p/${name}/v1`: one provider's own OpenAI-compatible API. */
  providerBaseUrl(name: string): string;
  stats(): FleetStats;
  /** Replaces the provider's faults (missing ones become 0); throws for an unknown provider. */
  setFaults(provider: string, faults: Partial<Faults>): void;
  /** Lets the provider's held streams (scenario `holdStreams`) go on to their end; returns how many. */
  releaseStreams(provider: string): number;
  /** Zeroes counters and the request log and re-seeds the fault dice. */
  reset(): void;
  /** Resolves at the first state change (or at once) where the predicate holds. */
  waitFor(predicate: (s: FleetStats) => boolean, timeoutMs?: number): Promise<FleetStats>;
  /** Closes the server and destroys open connections (hanging requests included). */
  close(): Promise<void>;
}

export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  const { scenario } = opts;
  const host = opts.host ?? '127.0.0.1';
  const providers = scenario.providers.map((spec) => new SimProvider(spec, scenario.seed));
  const book = new StatsBook(providers.map((p) => p.name));
  const balancer = scenario.balancing === 'price' ? new PriceBalancer(scenario.seed) : null;
  let served = 0;

  const control = {
    setFaults(name: string, faults: unknown): void {
      const provider = findProvider(providers, name);
      if (!provider) throw new Error(`unknown provider "${name}"; the fleet has ${providers.map((p) => p.name).join(', ')}`);
      provider.faults = parseFaults(faults, `faults of ${provider.name}`);
    },
    reset(): void {
      for (const p of providers) p.reseed();
      balancer?.reset();
      served = 0;
      book.reset();
    },
  };
  const ctx: RouteContext = {
    scenario,
    seed: scenario.seed,
    providers,
    book,
    replies: new ReplyCache(),
    balancer,
    routingNames: scenario.routingNames,
    // Fixed per fleet: reply content never depends on the clock, only this envelope field.
    created: Math.floor(Date.now() / 1000),
    nextId: () => `gen-${scenario.seed.toString(36)}-${(++served).toString(36)}`,
    control,
  };

  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => handleRequest(ctx, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // Closing twice (a test's own close, then its cleanup) is harmless.
  let closing: Promise<void> | undefined;
  const stop = () =>
    new Promise<void>((resolve, reject) => {
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeAllConnections();
    });

  return {
    url,
    openrouterBaseUrl: `${url}/api/v1`,
    providerBaseUrl: (name) => `${url}/p/${encodeURIComponent(name)}/v1`,
    stats: () => book.snapshot(),
    setFaults: (name, faults) => control.setFaults(name, faults),
    releaseStreams(name) {
      const provider = findProvider(providers, name);
      if (!provider) throw new Error(`unknown provider "${name}"; the fleet has ${providers.map((p) => p.name).join(', ')}`);
      return provider.releaseStreams();
    },
    reset: () => control.reset(),
    waitFor: (predicate, timeoutMs) => book.waitFor(predicate, timeoutMs),
    close: () => (closing ??= stop()),
  };
}
