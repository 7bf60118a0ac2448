// Composition root: builds every part of the gateway from a validated config.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CanaryRunner, CanaryScheduler, policyFromConfig, releaseQuarantine, type CanaryRunnerOptions } from './canary/index.js';
import { Catalog, DiscoveryLoop } from './catalog/index.js';
import { ConfigError, type WardenConfig } from './config/index.js';
import { systemClock, type Clock } from './clock/index.js';
import { Blocklist, RouteAdmission, RouteControl } from './health/index.js';
import { BreakerBoard, ConcurrencyQuota, InFlight } from './resilience/index.js';
import type { Router } from './routing/index.js';
import { HotConfig, LiveBreakerPolicies, webhookSettings, type ReloadReport } from './hot-config.js';
import { RoleRuntime } from './roles/index.js';
import { warmUp as warmUpQuality } from './quality/index.js';
import { createApp, Credentials, OpenRequests } from './server/index.js';
import { DashboardData, dashboardAssets, TimelineSampler, type DashboardAssets } from './dashboard/index.js';
import { coordinationFor, openStore, openStoreAsync, type Store } from './state/index.js';
import { registerStoreMetrics } from './telemetry/store-metrics.js';
import { Audit, createLogger, GatewayMetrics, Notifier, RequestLog, Tracing, type Logger } from './telemetry/index.js';
import { PoolSet, routeShed } from './upstream/index.js';

export interface GatewayOptions {
  log?: Logger;
  /** Injected so time-based rules (cooldowns, Retry-After waits) can be tested. */
  clock?: Clock;
  store?: Store;
  /** Process-level metrics (CPU, memory, event loop); off in tests that start many gateways. */
  processMetrics?: boolean;
  /** Run canary rounds on the configured interval (default true); tests drive rounds by hand. */
  canarySchedule?: boolean;
}

export interface Gateway {
  /** The YAML config serving now (after hot reloads); the roles that serve are `roles.effective`. */
  readonly config: WardenConfig;
  /** Runtime role management: the overlay on the YAML's roles, rollouts. */
  readonly roles: RoleRuntime;
  /** Reads the config again (SIGHUP, file change): applies what can change at run time, or refuses an invalid one. */
  reload(load: () => WardenConfig, trigger: string): ReloadReport;
  readonly catalog: Catalog;
  readonly blocklist: Blocklist;
  readonly breakers: BreakerBoard;
  /** Per-provider concurrency quotas and this instance's share; null when no provider has one. */
  readonly quota: ConcurrencyQuota | null;
  readonly control: RouteControl;
  readonly canary: CanaryRunner | null;
  readonly notifier: Notifier;
  readonly store: Store;
  readonly server: Server;
  /** Discovers routes, then listens; resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Discovers routes without listening (the `warden canary` command). */
  discover(): Promise<void>;
  /**
   * Shuts down: listening stops at once, in-flight requests get the grace period
   * (`server.shutdownGrace` unless `graceMs` says otherwise) and what is still open then is cut
   * (an SSE error event, or a 503); background work is stopped and awaited before the store
   * closes. A call while a shutdown drains ends its grace period at once.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export function createGateway(config: WardenConfig, options: GatewayOptions = {}): Gateway {
  const log = options.log ?? createLogger();
  const clock = options.clock ?? systemClock;
  const now = () => clock.now();
  const store = options.store ?? openStore(config.state, { log });
  const catalog = new Catalog(config);
  const blocklist = new Blocklist(now);
  config.blocklist.forEach((entry, i) => blocklist.add({ id: `builtin-${i + 1}`, route: entry.route, layer: 'builtin', reason: entry.reason, until: null }));
  const pools = new PoolSet();
  const metrics = new GatewayMetrics({ processMetrics: options.processMetrics, routeLabel: (route) => catalog.routeLabel(route) });
  const tracing = new Tracing(config.telemetry?.otlp, log);
  const audit = new Audit(store, log, now);
  const inflight = new InFlight(clock);
  const quotaLimits = new Map(Object.entries(config.providers).flatMap(([name, p]) => (p.maxConcurrency ? [[name, p.maxConcurrency] as const] : [])));
  const quota = quotaLimits.size > 0 ? new ConcurrencyQuota(quotaLimits) : null;
  let heartbeat: NodeJS.Timeout | null = null;
  const requests = new OpenRequests();
  let closing: Promise<void> | null = null;
  // A route that leaves service takes no new request at once (admission); what it holds
  // gets the drain window, then is aborted and, where nothing was sent yet, retried elsewhere,
  // unless the route is back in service by then (what it holds may be requests it took since).
  const drain = (route: string, why: string) => {
    const held = inflight.count(route);
    if (held === 0) return;
    audit.record('shed', route, { why, inFlight: held, drainWindowMs: config.server.drainWindow });
    void inflight.drain(route, config.server.drainWindow, routeShed(route, why), () => !health.inService(route));
  };
  const coordination = coordinationFor(store);
  const breakerPolicies = new LiveBreakerPolicies(config);
  const board = new BreakerBoard(breakerPolicies.policyFor, store, clock, (route, t) => {
    metrics.recordBreakerTransition(route, t.to, t.openMs, t.to === 'closed' && t.from === 'half_open' ? t.probes <= 1 : null);
    audit.record(`breaker_${t.to}`, route, { from: t.from, cause: t.cause, retryAt: t.retryAt }, t.to === 'open' ? 'warn' : 'info');
    if (t.to === 'open' && t.from === 'closed') drain(route, 'breaker opened');
  }, coordination);
  // A state another instance decided: the gauge follows it (that instance counted the
  // transition), and what this one holds on a route it opened drains the same way.
  board.onAdopt((route, from, to) => {
    metrics.setBreakerState(route, to);
    if (to === 'open' && from === 'closed') drain(route, 'breaker opened by another instance');
  });
  blocklist.onLeave((route, entry) => drain(route, `${entry.layer}: ${entry.reason}`));
  const health = new RouteAdmission(blocklist, board, clock);
  const control = new RouteControl(catalog, blocklist, board, store, audit, clock);
  control.restoreFromStore();
  // Roles: the YAML's with the runtime overlay the Store holds; the router and gates follow them.
  const roles = new RoleRuntime({ base: config, catalog, store, audit, log, now });
  roles.start();
  const router = roles.router;
  // A shared store's notices: what another instance changed is adopted here at once.
  const unsubscribe = store.onChange((kind, key) => {
    if (kind === 'breakers') board.adopt(key);
    else if (kind === 'blocks') control.syncBlock(key);
    else if (kind === 'canary') control.syncQuarantine(key);
    else if (kind === 'settings') roles.sync(key);
  });
  registerStoreMetrics(metrics.registry, store);
  const notifier = new Notifier({ ...webhookSettings(config), clock, log });
  audit.notifyWith(notifier);
  // Kept so a config reload can change the canary's rules in place.
  const canaryLive: { options: CanaryRunnerOptions | null } = { options: null };
  const canary = config.canary ? createCanary(config.canary) : null;
  const scheduler = canary && options.canarySchedule !== false ? new CanaryScheduler(canary, config.canary!.interval, log, coordination) : null;

  function createCanary(c: NonNullable<WardenConfig['canary']>): CanaryRunner {
    const policy = policyFromConfig(c);
    canaryLive.options = { catalog, pools, store, clock, audit, log, notifier, control, policy, watch: c.watch, controls: new Set(c.controls), concurrency: c.concurrency, tokenBudget: c.tokenBudget, metrics, tracing, coordination };
    return new CanaryRunner(canaryLive.options);
  }
  const discovery = new DiscoveryLoop(catalog, config, pools, log, now, (model) => board.recall(model.routes.map((r) => r.id)));
  board.recall(catalog.routes().map((r) => r.id));

  // The dashboard reads what /metrics already counts: a timeline sampled from the registry.
  const readMetrics = () => metrics.registry.getMetricsAsJSON();
  const timeline = new TimelineSampler({ read: readMetrics, now, everyMs: config.server.dashboardSample, onError: (err) => log.warn({ err }, 'dashboard sample failed') });
  const dashboard = new DashboardData({
    control,
    audit: (limit, filter) => store.audit(limit, filter),
    sampler: timeline,
    read: readMetrics,
    now,
    roles,
    // Read at each poll: a config reload changes the canary's rules and interval.
    canary: () => {
      const c = hot.base.canary;
      return c ? { mode: c.mode, watch: c.watch, ladderMs: c.ladder, intervalMs: c.interval } : null;
    },
  });
  let pageAssets: DashboardAssets | null = null;
  try {
    pageAssets = dashboardAssets();
  } catch (err) {
    log.warn({ err }, 'dashboard page files not found; /dashboard answers 503');
  }
  const credentials = new Credentials(config.server);
  const server = createApp({
    router,
    pools,
    health,
    board,
    metrics,
    audit,
    clock,
    inflight,
    quota,
    tracing,
    requestLog: new RequestLog(log),
    gateFor: (role) => roles.gateFor(role),
    admin: {
      credentials,
      roles,
      control,
      store,
      canary: canary && { run: (route) => canary.runRound(route) },
      releaseQuarantine: (route, by) => (canary ? canary.release(route, by) : releaseQuarantine(route, by, { store, clock, audit, notifier, control })),
      dashboard,
    },
    dashboardAssets: pageAssets,
    requests,
    log,
    bodyLimit: config.server.bodyLimit,
    receiveTimeouts: { requestMs: config.server.requestTimeout, headersMs: config.server.headersTimeout },
    credentials,
    modelList: () => modelList(router),
    readiness: () => {
      const checks = [...catalog.models.values()]
        .filter((m) => m.discovers)
        .map((m) => ({
          name: `discovery:${m.name}`,
          ok: m.lastDiscovery !== null && m.routes.length > 0,
          detail: m.lastDiscovery?.error ?? `${m.routes.length} routes`,
        }));
      // A degraded store still serves (from its local copy): ready, and saying so.
      const health = store.health();
      const stateCheck = { name: `state:${store.kind}`, ok: true, detail: health.degraded ? `degraded${health.reason ? ` (${health.reason})` : ''}: serving from the local copy, ${health.pending} writes held` : 'ok' };
      return { ready: checks.every((c) => c.ok), degraded: health.degraded, canaryLeader: scheduler?.leader ?? null, checks: [...checks, stateCheck] };
    },
  });

  /** The address the gateway listens on, once it does. */
  let listeningHost: string | null = null;
  const hot = new HotConfig({
    base: config,
    roles,
    blocklist,
    breakers: breakerPolicies,
    catalog,
    pools,
    canary: canaryLive.options,
    canarySchedule: scheduler,
    credentials,
    server,
    exposed: () => listeningHost !== null && !LOOPBACK.test(listeningHost) && !config.server.allowAnonymous,
    notifier,
    audit,
    log,
  });

  return {
    get config() {
      return hot.base;
    },
    roles,
    reload: (load, trigger) => hot.reload(load, trigger),
    catalog,
    blocklist,
    breakers: board,
    quota,
    control,
    canary,
    notifier,
    store,
    server,
    async listen(port = config.server.port, host = config.server.host) {
      if (!LOOPBACK.test(host) && credentials.clientKeys.length === 0 && !config.server.allowAnonymous) {
        throw new ConfigError('server', [{ path: 'server.clientKeys', message: `serving on ${host} without client keys would open the gateway to anyone; set server.clientKeys or server.allowAnonymous: true` }]);
      }
      if (Object.values(config.roles).some((r) => r.checks.includes('language'))) warmUpQuality();
      await tracing.start();
      await discovery.refreshAll();
      discovery.start();
      if (quota && coordination.shared) {
        // The instance list sizes each instance's share of the quotas; an instance that stops
        // beating drops off it after three seconds and the others' shares grow back.
        const beat = () => coordination.heartbeat(3_000).then((n) => quota.setInstances(n));
        await beat();
        heartbeat = setInterval(() => void beat(), 1_000);
        heartbeat.unref();
      }
      scheduler?.start();
      timeline.start();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          listeningHost = host;
          resolve();
        });
      });
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      log.info({ url: `http://${shownHost}:${address.port}`, models: catalog.models.size, roles: Object.keys(config.roles).length }, 'warden listening');
      return `http://${shownHost}:${address.port}`;
    },
    discover: () => tracing.start().then(() => discovery.refreshAll()),
    close(options = {}) {
      if (closing) {
        requests.endGrace();
        return closing;
      }
      closing = shutDown(options.graceMs ?? hot.base.server.shutdownGrace);
      return closing;
    },
  };

  async function shutDown(graceMs: number): Promise<void> {
    // Nothing new starts: no discovery refresh, heartbeat, dashboard sample or canary tick.
    discovery.stop();
    if (heartbeat) clearInterval(heartbeat);
    timeline.stop();
    const schedulerStopped = scheduler?.stop();
    if (server.listening) log.info({ inFlight: requests.size, graceMs }, 'shutting down: no new connections; requests in flight may finish within the grace period');
    const { drained, cut } = await requests.drain(server, (signal) => clock.sleep(graceMs, signal));
    if (drained + cut > 0) log[cut > 0 ? 'warn' : 'info']({ drained, cut, graceMs }, cut > 0 ? 'grace period over: requests still open were ended with a shutdown error' : 'every request in flight finished');
    // Background work ends before the store it writes to: a canary round under way (scheduled
    // or asked for by an admin) records what it has, then the lease is handed back.
    await canary?.stop();
    await schedulerStopped;
    unsubscribe();
    board.releaseProbes();
    await pools.close();
    await tracing.shutdown();
    await store.close();
  }
}

/**
 * The gateway with the store its config names, opened first: Redis needs a moment to load
 * its snapshot (or to give up and serve degraded); the other stores open at once.
 */
export async function openGateway(config: WardenConfig, options: GatewayOptions = {}): Promise<Gateway> {
  const log = options.log ?? createLogger();
  const store = options.store ?? (await openStoreAsync(config.state, { log }));
  return createGateway(config, { ...options, store, log });
}

function modelList(router: Router) {
  return {
    object: 'list',
    data: router.plans().map((plan) => ({
      id: plan.name,
      object: 'model',
      created: 0,
      owned_by: 'warden',
      warden: plan.role
        ? { kind: 'role', tier: plan.role.config.tier, models: plan.candidates.map((m) => m.name) }
        : { kind: 'model', provider: plan.candidates[0]!.upstream.providerName, upstreamModel: plan.candidates[0]!.upstreamModel, routes: plan.candidates[0]!.routes.map((r) => r.id) },
    })),
  };
}
