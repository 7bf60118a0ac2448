// One canary round: every route of each watched model gets the probe set, pinned to it
// alone; language anomalies are confirmed twice on the spot; positive controls can void a
// probe for the round; each route's round then moves its ladder, and the decisions take
// effect (quarantine layer, release) and are audited and notified with their evidence.
import { parseRouteId, type Catalog, type Route } from '../catalog/index.js';
import type { Clock } from '../clock/index.js';
import type { RouteControl } from '../health/index.js';
import { LocalCoordination, type Coordination, type Store } from '../state/index.js';
import type { Audit, GatewayMetrics, Logger, Notifier, Span, SpanSource, Spans } from '../telemetry/index.js';
import type { PoolSet } from '../upstream/index.js';
import { CanaryError } from './errors.js';
import { judgeProbe } from './judge.js';
import { decideLanguage, needsConfirmation } from './language-confirm.js';
import { escalatingLadder, type CanaryDecision, type QuarantineLadder } from './ladder.js';
import { sendProbe } from './probe-client.js';
import { backInService, releaseQuarantine } from './release.js';
import { probeRequest, probeRequests } from './probes.js';
import { RoundLock } from './round-lock.js';
import { applyPositiveControls, decideRound } from './round.js';
import { INITIAL_ROUTE_STATE, UNSENT_REASONS, type CanaryPolicy, type ProbeKind, type ProbeRequest, type ProbeResult, type RouteRound } from './types.js';

export interface CanaryRunnerOptions {
  catalog: Catalog;
  pools: PoolSet;
  store: Store;
  clock: Clock;
  audit: Audit;
  log: Logger;
  notifier: Notifier | null;
  /** Null when the round must not change routing (the `warden canary` command). */
  control: RouteControl | null;
  policy: CanaryPolicy;
  watch: readonly string[];
  controls: ReadonlySet<string>;
  concurrency: number;
  tokenBudget: number;
  ladder?: QuarantineLadder;
  /** Probe results and quarantines on /metrics. */
  metrics?: GatewayMetrics;
  /** A span per round and per probe sent, when tracing is on. */
  tracing?: SpanSource;
  /** Where the one-round-at-a-time lock across instances is held; one instance alone without it. */
  coordination?: Coordination;
}

/** The rules a round takes at its start and judges with to its end, whatever a reload changes meanwhile. */
interface RoundRules {
  policy: CanaryPolicy;
  controls: ReadonlySet<string>;
}

export interface RouteReport {
  route: string;
  control: boolean;
  round: RouteRound;
  decisions: CanaryDecision[];
}

export interface RoundReport {
  at: number;
  mode: CanaryPolicy['mode'];
  routes: RouteReport[];
  invalidated: ProbeKind[];
  alerts: string[];
  tokensSpent: number;
}

/** Completion tokens a probe answer cost, estimated from its length when usage is not read. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4) + 1;

export class CanaryRunner {
  #running: Promise<RoundReport> | null = null;
  /** The route the running round probes alone, or null for every watched route. */
  #runningOnly: string | null = null;
  readonly #lock: RoundLock;
  /** Aborted by stop(): the running round ends soon, and no other starts. */
  readonly #stop = new AbortController();
  readonly #ladder: QuarantineLadder;

  constructor(private readonly o: CanaryRunnerOptions) {
    this.#ladder = o.ladder ?? escalatingLadder;
    this.#lock = new RoundLock(o.coordination ?? new LocalCoordination());
  }

  /**
   * Runs a round. One round at a time, across instances: a call while this instance's round
   * runs joins it when it asks for the same routes and is refused (`round_in_progress`)
   * otherwise; a call while another instance's round runs is refused too.
   */
  runRound(only?: string): Promise<RoundReport> {
    if (this.#stop.signal.aborted) return Promise.reject(new CanaryError('stopped', 'the gateway is shutting down: no canary round starts any more'));
    // Checked before joining a round under way, so a wrong route is refused whenever it is asked for.
    const unknown = only === undefined ? null : this.#unknownRoute(only);
    if (unknown) return Promise.reject(unknown);
    if (this.#running) {
      if (this.#runningOnly === (only ?? null)) return this.#running;
      const running = this.#runningOnly === null ? 'a round of every watched route' : `a round of ${this.#runningOnly} alone`;
      return Promise.reject(new CanaryError('round_in_progress', `${running} is in progress on this instance; ask again when it is done`));
    }
    this.#runningOnly = only ?? null;
    this.#running = this.#locked(only).finally(() => {
      this.#running = null;
      this.#runningOnly = null;
    });
    return this.#running;
  }

  async #locked(only: string | undefined): Promise<RoundReport> {
    const unlock = await this.#lock.take();
    if (!unlock) throw new CanaryError('round_in_progress', 'a canary round is in progress on another instance (it holds the canary-round lock of the shared store); ask again when it is done');
    try {
      return await this.#round(only);
    } finally {
      await unlock();
    }
  }

  /**
   * The gateway is shutting down: probes of the running round not sent yet are inconclusive,
   * those in flight are aborted (and inconclusive too), and the round records what it has.
   * Resolves once it has, so the store it writes to can be closed after.
   */
  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#running?.catch(() => {});
  }

  /** Routes probed by a round: every route of each watched model, as discovered now. */
  routes(): Route[] {
    return this.o.watch.flatMap((name) => this.o.catalog.get(name)?.routes ?? []);
  }

  /** Why a round cannot probe `route` alone; null when it is a route of a watched model. */
  #unknownRoute(route: string): CanaryError | null {
    if (this.routes().some((r) => r.id === route)) return null;
    const watched = this.o.watch.join(', ') || 'none';
    const model = parseRouteId(route)?.model;
    const unwatched = model !== undefined && this.o.catalog.get(model)?.routes.some((r) => r.id === route);
    if (unwatched) return new CanaryError('unknown_route', `"${route}" is a route of ${model}, which the canary does not watch (watched: ${watched})`);
    return new CanaryError('unknown_route', `"${route}" is not a route of a watched model (watched: ${watched})`);
  }

  /** Ends quarantines whose time is up (also done at the start of every round). */
  expireDue(): void {
    const now = this.o.clock.now();
    for (const [route, state] of this.o.store.canaryStates()) {
      if (!state.quarantine || state.quarantine.until > now) continue;
      const outcome = this.#ladder.expire(state, now);
      this.o.store.putCanaryState(route, outcome.state);
      this.#apply(route, outcome.decisions, null);
    }
  }

  /** An admin's early release; false when the route was not (or would not be) quarantined. */
  release(route: string, by: string): boolean {
    return releaseQuarantine(route, by, this.o);
  }

  async #round(only?: string): Promise<RoundReport> {
    const at = this.o.clock.now();
    // A reload during the round changes the options object in place: the round keeps what it started with.
    const rules: RoundRules = { policy: this.o.policy, controls: this.o.controls };
    this.expireDue();
    let routes = this.routes();
    if (only !== undefined) {
      // The controls go along: without them a probe that cannot tell (a control passed it) would still decide the route.
      routes = routes.filter((r) => r.id === only || rules.controls.has(r.id));
    }
    const budget = { left: this.o.tokenBudget, spent: 0 };
    const spans = this.o.tracing?.spans;
    const trace = spans ? { spans, round: spans.round(only) } : null;
    // Each route is decided as soon as its own probes and the controls' are in: one slow
    // route does not hold back the others' verdicts.
    const probing = new Map(routes.map((r) => [r.id, deferred<ProbeResult[]>()]));
    const lanes = pool(routes, this.o.concurrency, async (route) => {
      let results: ProbeResult[] = [];
      try {
        results = await this.#probeRoute(route, rules.policy, budget, trace);
      } catch (e) {
        // A broken probe must not stall the round: the route's round is inconclusive.
        this.o.log.error({ route: route.id, err: e }, 'canary probe failed');
      }
      probing.get(route.id)!.resolve(results);
    });
    const controls = new Set([...rules.controls].filter((c) => probing.has(c)));
    const controlsDone = Promise.all([...controls].map(async (c) => [c, await probing.get(c)!.promise] as const)).then((entries) => {
      const controlled = applyPositiveControls(new Map(entries), controls);
      for (const alert of controlled.alerts) {
        this.o.audit.record('probe_invalidated', null, { alert, kinds: controlled.invalidatedKinds }, 'warn');
        this.o.notifier?.notify({ type: 'probe_invalidated', route: null, at, summary: alert, detail: { kinds: controlled.invalidatedKinds } });
      }
      return controlled;
    });
    const reports = await Promise.all(
      routes.map(async (route) => {
        const probes = await probing.get(route.id)!.promise;
        const { invalidatedKinds } = await controlsDone;
        const marked = probes.map((p) => (invalidatedKinds.includes(p.kind) ? { ...p, invalidated: true } : p));
        return this.#decide(route, decideRound(route.id, at, marked), controls.has(route.id), at, rules.policy);
      }),
    );
    await lanes;
    const { invalidatedKinds, alerts } = await controlsDone;
    const summary = { routes: reports.length, failed: reports.filter((r) => r.round.verdict === 'fail').map((r) => r.route), frozen: reports.filter((r) => r.round.verdict === 'transport').map((r) => r.route), tokensSpent: budget.spent };
    this.o.audit.record('canary_round', null, summary);
    trace?.spans.endRound(trace.round, summary.routes, summary.failed.length);
    return { at, mode: this.#policyNow(rules.policy).mode, routes: reports, invalidated: invalidatedKinds, alerts, tokensSpent: budget.spent };
  }

  /**
   * The round's rules at this moment: those of its start, except that a switch to observe
   * takes effect at once — once the operator says stop enforcing, no quarantine is enforced,
   * not even by a round that began before.
   */
  #policyNow(atStart: CanaryPolicy): CanaryPolicy {
    return atStart.mode === 'enforce' && this.o.policy.mode === 'observe' ? { ...atStart, mode: 'observe' } : atStart;
  }

  #decide(route: Route, round: RouteRound, isControl: boolean, at: number, atStart: CanaryPolicy): RouteReport {
    for (const p of round.probes) this.o.metrics?.recordProbeResult(p.kind, p.invalidated ? 'invalidated' : p.verdict);
    const state = this.o.store.getCanaryState(route.id) ?? INITIAL_ROUTE_STATE;
    if (isControl) {
      // Controls are known to filter: they calibrate the probe and are never quarantined by it.
      this.o.store.putCanaryState(route.id, { ...state, lastRound: round });
      return { route: route.id, control: true, round, decisions: [] };
    }
    const policy = this.#policyNow(atStart);
    const outcome = this.#ladder.advance(state, round, { now: at, policy, inServiceAfterQuarantine: this.#inServiceWithout(route, policy) });
    this.o.store.putCanaryState(route.id, outcome.state);
    this.#apply(route.id, outcome.decisions, round, policy);
    return { route: route.id, control: false, round, decisions: outcome.decisions };
  }

  /**
   * Routes of `route`'s model left serving if it were quarantined. In observe mode the routes
   * it would already have quarantined count as out, so the floor holds where enforce's would.
   */
  #inServiceWithout(route: Route, policy: CanaryPolicy): number {
    if (!this.o.control) return Number.POSITIVE_INFINITY;
    const observing = policy.mode === 'observe';
    return this.o.control.inService(route.model).filter((r) => r.id !== route.id && !(observing && this.o.store.getCanaryState(r.id)?.wouldQuarantine)).length;
  }

  async #probeRoute(route: Route, policy: CanaryPolicy, budget: { left: number; spent: number }, trace: { spans: Spans; round: Span } | null): Promise<ProbeResult[]> {
    const model = this.o.catalog.get(route.model)!;
    const state = this.o.store.getCanaryState(route.id) ?? INITIAL_ROUTE_STATE;
    const options = { languages: policy.languages, language: this.#ladder.nextLanguage(state, policy.languages) };
    const stopped = this.#stop.signal;
    const send = async (request: ProbeRequest): Promise<ProbeResult> => {
      const inconclusive = (reason: string): ProbeResult => ({ kind: request.kind, language: request.language, verdict: 'inconclusive', reason, evidence: {} });
      if (stopped.aborted) return inconclusive(UNSENT_REASONS.stopped);
      if (budget.left <= 0) return inconclusive(UNSENT_REASONS.budget);
      const span = trace?.spans.probe(trace.round, route.id, request.kind, request.language);
      const exchange = await sendProbe({ model, endpoint: route.endpoint }, request, this.o.pools, policy.firstTokenLimitMs, stopped);
      const tokens = estimateTokens(exchange.text);
      budget.left -= tokens;
      budget.spent += tokens;
      // Cut short by the shutdown: what came back says nothing about the route.
      const result = stopped.aborted ? inconclusive(UNSENT_REASONS.stopped) : judgeProbe(request, exchange, policy);
      if (exchange.outcome === 'internal') this.o.log.error({ route: route.id, probe: request.kind, error: exchange.error }, 'Warden failed while reading a canary probe; the route is not judged on it');
      if (span) trace!.spans.endProbe(span, result.verdict, result.reason, exchange.firstTokenMs);
      return result;
    };
    const results: ProbeResult[] = [];
    for (const request of probeRequests(options)) {
      let result = await send(request);
      if (request.kind === 'language' && needsConfirmation(result)) {
        // Seed 000: an anomaly is confirmed twice at once; the majority of three decides.
        const again = probeRequest('language', options);
        result = decideLanguage(result, [await send(again), await send(again)]);
      }
      results.push(result);
    }
    return results;
  }

  #apply(route: string, decisions: CanaryDecision[], round: RouteRound | null, policy: CanaryPolicy = this.o.policy): void {
    const evidence = round ? { reasons: round.reasons, probes: round.probes.filter((p) => p.verdict === 'fail').map((p) => ({ kind: p.kind, reason: p.reason, evidence: p.evidence })) } : {};
    for (const d of decisions) {
      const detail: Record<string, unknown> = { ...d, ...evidence };
      switch (d.type) {
        case 'quarantine':
          this.o.control?.setQuarantine(route, d.until, d.reasons);
          // Counted under the first failing probe of the deciding round, so the sum is the number of quarantines.
          this.o.metrics?.recordQuarantine(d.reasons[0] ?? 'unknown');
          this.#notify('quarantine', route, `${route} quarantined until ${new Date(d.until).toISOString()} (step ${d.step + 1}): ${d.reasons.join('; ')}`, detail);
          break;
        case 'would_quarantine':
          this.#notify('would_quarantine', route, `observe mode: ${route} would be quarantined (step ${d.step + 1}): ${d.reasons.join('; ')}`, detail);
          break;
        case 'floor_held':
          this.#notify('floor_held', route, `${route} failed ${policy.failedRoundsToQuarantine} rounds but quarantining it would leave ${d.inService} route(s) of its model in service (floor ${d.floor}): an admin must decide`, detail);
          break;
        case 'release_early':
        case 'expired':
        case 'released':
          backInService(route, d.type, detail, this.o);
          break;
        default:
          this.o.audit.record(d.type, route, detail);
      }
    }
  }

  #notify(type: string, route: string, summary: string, detail: Record<string, unknown>): void {
    this.o.audit.record(type, route, detail, type === 'quarantine' || type === 'floor_held' ? 'warn' : 'info');
    this.o.notifier?.notify({ type, route, at: this.o.clock.now(), summary, detail });
  }
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}
