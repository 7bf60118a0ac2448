// A reloaded YAML applied to the running gateway: roles (under the runtime overlay), the
// built-in blocklist, breaker settings (the top-level ones and each model's override),
// upstream timeouts (top-level, a provider's, a model's), the client keys and admin tokens,
// the time a request may take to arrive (server.requestTimeout, server.headersTimeout),
// the webhooks, and the canary's rules and interval take effect at once; sections that shape connections, the catalog or the store keep their running values
// until a restart, which is logged and audited. An invalid file changes nothing and is
// audited with its errors.
import type { Server } from 'node:http';
import type { CanaryRunnerOptions } from './canary/index.js';
import { policyFromConfig } from './canary/index.js';
import { parseRouteId, type Catalog } from './catalog/index.js';
import { breakersChanged, changedSections, ConfigError, credentialsChanged, isConfigError, receiveLimitsChanged, reloadable, timeoutsChanged, validateConfig, type ConfigIssue, type HotPart, type Section, type WardenConfig } from './config/index.js';
import type { Blocklist } from './health/index.js';
import type { BreakerPolicy } from './resilience/index.js';
import type { Credentials } from './server/index.js';
import type { RoleRuntime } from './roles/index.js';
import type { Audit, Logger, Notifier, WebhookSettings } from './telemetry/index.js';
import type { PoolSet } from './upstream/index.js';

export interface ReloadReport {
  ok: boolean;
  trigger: string;
  /** Sections whose new values now serve, and models whose breaker override now serves (`models.chat-main.breaker`). */
  applied: string[];
  /** Sections that changed in the file but keep their running values until a restart. */
  restartNeeded: string[];
  /** Why the file was refused, each naming its path (and line). */
  issues: ConfigIssue[];
}

/** The notifier's settings from a config (the webhook URLs revealed: they are secrets everywhere else). */
export function webhookSettings(config: WardenConfig): WebhookSettings {
  return { webhooks: config.notify.webhooks.map((url) => url.reveal()), timeoutMs: config.notify.timeout, retries: config.notify.retries };
}

/**
 * Breaker settings per route, one object per route for the life of the gateway: a breaker
 * holds its policy by reference, so a reload updating these objects reaches every breaker.
 */
export class LiveBreakerPolicies {
  readonly #policies = new Map<string, BreakerPolicy>();

  constructor(private config: WardenConfig) {}

  readonly policyFor = (route: string): BreakerPolicy => {
    let policy = this.#policies.get(route);
    if (!policy) this.#policies.set(route, (policy = policyOf(this.config, route)));
    return policy;
  };

  update(config: WardenConfig): void {
    this.config = config;
    for (const [route, policy] of this.#policies) Object.assign(policy, policyOf(config, route));
  }
}

/** A route's breaker settings: the config's defaults, overridden by its model's. */
function policyOf(config: WardenConfig, route: string): BreakerPolicy {
  const parts = parseRouteId(route);
  const model = parts ? config.models[parts.model] : undefined;
  return { ...config.breaker, ...model?.breaker };
}

export interface HotConfigOptions {
  base: WardenConfig;
  roles: RoleRuntime;
  blocklist: Blocklist;
  breakers: LiveBreakerPolicies;
  /** The models whose timeouts a reload updates in place, and the pools a changed connect timeout retires. */
  catalog: Catalog;
  pools: PoolSet;
  /** The running canary's options object, updated in place (the runner reads it on each round); null without a canary. */
  canary: CanaryRunnerOptions | null;
  /** What runs the canary's rounds on its interval; null when rounds are not scheduled (tests, `warden canary`). */
  canarySchedule: { reschedule(intervalMs: number): void } | null;
  /** The keys and tokens the server reads on each request. */
  credentials: Credentials;
  /** The HTTP server, whose receive limits node:http reads at each look for late requests. */
  server: Server;
  /** Whether the gateway listens beyond loopback without server.allowAnonymous: it must keep a client key. */
  exposed: () => boolean;
  /** Where notices go: a reload's webhooks serve from the next notice. */
  notifier: Notifier;
  audit: Audit;
  log: Logger;
}

export class HotConfig {
  #base: WardenConfig;

  constructor(private readonly o: HotConfigOptions) {
    this.#base = o.base;
  }

  /** The YAML config now serving (restart-only sections as they were at start). */
  get base(): WardenConfig {
    return this.#base;
  }

  reload(load: () => WardenConfig, trigger: string): ReloadReport {
    let next: WardenConfig;
    let restart: Section[] = [];
    let hot: HotPart[] = [];
    try {
      const file = load();
      ({ hot, restart } = changedSections(this.#base, file));
      // Roles are checked against the models that run now, not ones that need a restart to exist.
      next = validateConfig(reloadable(this.#base, file, restart), 'reloaded config');
      if (next.server.clientKeys.length === 0 && this.o.exposed()) {
        throw new ConfigError('reloaded config', [{ path: 'server.clientKeys', message: 'the gateway listens beyond loopback: removing every client key would open it to anyone; keep a key, or set server.allowAnonymous: true and restart' }]);
      }
    } catch (e) {
      if (!isConfigError(e)) throw e;
      const issues = e.issues.map(({ path, message, line }) => ({ path, message, ...(line ? { line } : {}) }));
      this.o.audit.record('config_reload_rejected', null, { trigger, source: e.source, issues, restartNeeded: restart, serving: 'the running config, unchanged' }, 'error');
      return { ok: false, trigger, applied: [], restartNeeded: restart, issues };
    }
    const prev = this.#base;
    this.#base = next;
    if (hot.includes('blocklist')) this.#reloadBlocklist(prev, next);
    if (breakersChanged(hot)) this.o.breakers.update(next);
    if (timeoutsChanged(hot)) this.#retime(next);
    if (credentialsChanged(hot)) this.o.credentials.update(next.server);
    if (receiveLimitsChanged(hot)) {
      this.o.server.requestTimeout = next.server.requestTimeout;
      this.o.server.headersTimeout = next.server.headersTimeout;
    }
    if (hot.includes('notify')) this.o.notifier.update(webhookSettings(next));
    if (hot.includes('canary')) this.#reloadCanary(next);
    // Always: the overlay is checked again against the new base even when the YAML roles did not change.
    this.o.roles.setBase(next);
    if (restart.length > 0) this.o.log.warn({ sections: restart }, 'config sections changed that only a restart applies; they keep their running values');
    this.o.audit.record('config_reloaded', null, { trigger, applied: hot, restartNeeded: restart });
    return { ok: true, trigger, applied: hot, restartNeeded: restart, issues: [] };
  }

  #retime(next: WardenConfig): void {
    if (!this.o.catalog.retime(next)) return;
    const retired = this.o.pools.retireUnused(this.o.catalog.models.values());
    if (retired > 0) this.o.log.info({ pools: retired }, 'connect timeouts changed: new connections use them; the old pools close once their requests have ended');
  }

  #reloadBlocklist(prev: WardenConfig, next: WardenConfig): void {
    prev.blocklist.forEach((_, i) => this.o.blocklist.remove(`builtin-${i + 1}`));
    next.blocklist.forEach((entry, i) => this.o.blocklist.add({ id: `builtin-${i + 1}`, route: entry.route, layer: 'builtin', reason: entry.reason, until: null }));
  }

  #reloadCanary(next: WardenConfig): void {
    const options = this.o.canary;
    const c = next.canary;
    if (!options || !c) return;
    this.o.canarySchedule?.reschedule(c.interval);
    options.policy = policyFromConfig(c);
    options.watch = c.watch;
    options.controls = new Set(c.controls);
    options.concurrency = c.concurrency;
    options.tokenBudget = c.tokenBudget;
  }
}
