// The shared Store for several instances: Redis behind a local copy. Reads never leave the
// process; each write updates the copy at once, goes to Redis pipelined, and is announced on a
// channel so other instances re-read that key. When Redis is away the store keeps serving from
// the copy, holds the writes, and on reconnect replays them and reloads so instances converge
// (the connection side is redis-link.ts).
import type { CanaryRouteState } from '../canary/types.js';
import type { BreakerSnapshot } from '../resilience/breaker.js';
import { LocalCopy } from './redis-copy.js';
import type { RedisCoordination } from './redis-coordination.js';
import { RedisLink } from './redis-link.js';
import { CONSOLE_LOG, type RedisStoreLog, type RedisStoreOptions } from './redis-options.js';
import { Ring } from './redis-ring.js';
import type { ChangeKind } from './redis-wire.js';
import type { AuditEvent, LedgerEntry, RuntimeBlock, Store, StoreHealth } from './store.js';
export type { RedisStoreLog, RedisStoreOptions } from './redis-options.js';

type ChangeListener = (kind: ChangeKind, key: string) => void;

export class RedisStore implements Store {
  readonly kind: string = 'redis';
  readonly shared = true;
  /** Settles once the first snapshot is loaded, or after the connect timeout (then degraded). */
  readonly ready: Promise<void>;

  readonly #log: RedisStoreLog;
  readonly #local = new LocalCopy();
  readonly #audit: Ring<AuditEvent>;
  readonly #ledger: Ring<LedgerEntry>;
  readonly #listeners = new Set<ChangeListener>();
  readonly #link: RedisLink;
  #closed: Promise<void> | null = null;

  /** Prefer `RedisStore.open`; the constructor returns at once and connects in the background. */
  constructor(options: RedisStoreOptions) {
    const keep = Math.max(1, Math.floor(options.keep ?? 10_000));
    this.#log = options.log ?? CONSOLE_LOG;
    this.#audit = new Ring(keep);
    this.#ledger = new Ring(keep);
    this.#link = new RedisLink(options, { copy: this.#local, audit: this.#audit, ledger: this.#ledger, keep, emit: (kind, key) => this.#emit(kind, key) });
    this.ready = this.#link.ready;
  }

  static async open(options: RedisStoreOptions): Promise<RedisStore> {
    const store = new RedisStore(options);
    await store.ready;
    return store;
  }

  /** Tags this instance's change notices, so it ignores its own. */
  get instance(): string {
    return this.#link.instance;
  }

  get prefix(): string {
    return this.#link.prefix;
  }

  /** True while writes are held locally because Redis cannot be reached or refused one. */
  get degraded(): boolean {
    return !this.#link.up;
  }

  /** Failed commands and connection errors since open; the store kept serving. */
  get errors(): number {
    return this.#link.errors;
  }

  /** Writes waiting for Redis, and appends dropped because the backlog was full. */
  get backlog(): { pending: number; dropped: number } {
    return this.#link.backlog;
  }

  /** Probe slots, leases and the instance list, on this store's connection. */
  get coordination(): RedisCoordination {
    return this.#link.coordination;
  }

  health(): StoreHealth {
    const reason = this.#link.reason;
    return { degraded: !this.#link.up, errors: this.#link.errors, pending: this.#link.backlog.pending, ...(reason !== null && { reason }) };
  }

  /** Hears changes made by other instances (never this one's own); returns an unsubscribe. */
  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  getBreaker(route: string): BreakerSnapshot | undefined {
    return this.#local.get('breakers', route);
  }

  putBreaker(route: string, snapshot: BreakerSnapshot): void {
    this.#local.put('breakers', route, snapshot);
    this.#link.writeHash('breakers', route);
  }

  getCanaryState(route: string): CanaryRouteState | undefined {
    return this.#local.get('canary', route);
  }

  putCanaryState(route: string, state: CanaryRouteState): void {
    this.#local.put('canary', route, state);
    this.#link.writeHash('canary', route);
  }

  canaryStates(): Map<string, CanaryRouteState> {
    return this.#local.values('canary');
  }

  putBlock(block: RuntimeBlock): void {
    this.#local.put('blocks', block.id, block);
    this.#link.writeHash('blocks', block.id);
  }

  deleteBlock(id: string): boolean {
    const existed = this.#local.delete('blocks', id);
    if (existed) this.#link.writeHash('blocks', id);
    return existed;
  }

  blocks(): RuntimeBlock[] {
    return [...this.#local.values('blocks').values()];
  }

  getSetting(key: string): unknown {
    return this.#local.get('settings', key);
  }

  putSetting(key: string, value: unknown): void {
    this.#local.put('settings', key, value);
    this.#link.writeHash('settings', key);
  }

  deleteSetting(key: string): boolean {
    const existed = this.#local.delete('settings', key);
    if (existed) this.#link.writeHash('settings', key);
    return existed;
  }

  appendAudit(event: AuditEvent): void {
    this.#audit.push(event);
    const json = this.#link.encode(event, 'audit');
    if (json !== null) this.#link.writeList({ kind: 'audit', id: this.#link.nextId(), json, event });
  }

  audit(limit: number, filter: { route?: string; type?: string; since?: number } = {}): AuditEvent[] {
    const { route, type, since } = filter;
    return this.#audit.newest(
      limit,
      (e) => (route === undefined || e.route === route) && (type === undefined || e.type === type) && (since === undefined || e.at >= since),
    );
  }

  appendLedger(entry: LedgerEntry): void {
    this.#ledger.push(entry);
    const json = this.#link.encode(entry, 'ledger');
    if (json !== null) this.#link.writeList({ kind: 'ledger', id: this.#link.nextId(), json, entry });
  }

  ledger(limit: number): LedgerEntry[] {
    return this.#ledger.newest(limit);
  }

  close(): Promise<void> {
    this.#closed ??= this.#link.close();
    return this.#closed;
  }

  #emit(kind: ChangeKind, key: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(kind, key);
      } catch (e) {
        this.#log.error({ store: 'redis', kind, key, error: e instanceof Error ? e.message : String(e) }, 'Redis store change listener threw');
      }
    }
  }
}
