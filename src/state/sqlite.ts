// The embedded Store for one instance: SQLite in WAL mode. Breakers, canary states and blocks
// live in memory (loaded at open) so reads never touch the disk, and each put writes through.
// Audit and ledger rows are batched and flushed on a short timer. A write that fails is logged,
// counted and retried later; the caller never sees it, and the in-memory copy stays the truth.
import type Database from 'better-sqlite3';
import type { CanaryRouteState } from '../canary/types.js';
import type { BreakerSnapshot } from '../resilience/breaker.js';
import { StoreError } from './errors.js';
import { FailureStreak } from './failure-streak.js';
import { identityOf, openFile } from './sqlite-file.js';
import { CONSOLE_LOG, type StoreLog } from './store-log.js';
import { adviceFor, codeOf, messageOf } from './sqlite-advice.js';
import * as rows from './sqlite-rows.js';
import type { AuditEvent, LedgerEntry, RuntimeBlock, Store, StoreHealth } from './store.js';

export interface SqliteStoreOptions {
  /** The database file; its directory is created when missing. */
  file: string;
  /** Audit rows and ledger rows kept, each; older ones are trimmed now and then. Default 100_000. */
  keep?: number;
  /** Default: the console. */
  log?: StoreLog;
  /** How long appended audit and ledger rows wait to be written together, ms. Default 100. */
  flushMs?: number;
  /**
   * How long a write waits for a lock held by another connection, ms. Default 100. It blocks
   * the event loop, so every request, while it waits (only when something else writes to the
   * file); a write that gives up is retried, and while writes fail none waits at all.
   */
  busyTimeoutMs?: number;
}

type Keyed = 'breakers' | 'canary' | 'blocks' | 'settings';

/** After a failed write, when to try again. */
const RETRY_MS = 1_000;
/** Audit or ledger rows held while the disk refuses them; beyond this the oldest are dropped. */
const MAX_PENDING = 10_000;

export class SqliteStore implements Store {
  readonly kind: string = 'sqlite';
  readonly shared = false;
  readonly file: string;
  readonly #keep: number;
  readonly #log: StoreLog;
  readonly #flushMs: number;
  readonly #busyTimeoutMs: number;
  #db: Database.Database;
  #sql: rows.Statements;
  #flushBatch: () => void;
  /** The open file's identity, to notice the path naming another file (or none) now. */
  #identity: string | null;
  /** The path no longer names the open file and a new one could not be opened yet. */
  #lost = false;
  #othersWrote: () => boolean;
  #othersSaid = false;

  #breakers = new Map<string, BreakerSnapshot>();
  #canary = new Map<string, CanaryRouteState>();
  #blocks = new Map<string, RuntimeBlock>();
  #settings = new Map<string, unknown>();
  /** Keys whose row on disk may differ from memory because a write failed. */
  #dirty: Record<Keyed, Set<string>> = { breakers: new Set(), canary: new Set(), blocks: new Set(), settings: new Set() };
  #audit: rows.EncodedAudit[] = [];
  #ledger: LedgerEntry[] = [];
  #timer: NodeJS.Timeout | null = null;
  /** Failures since the last successful write: only the first of a streak is logged. */
  readonly #failures = new FailureStreak();
  #sinceTrim = 0;
  #closed = false;

  constructor(options: SqliteStoreOptions) {
    this.file = options.file;
    this.#keep = Math.max(1, Math.floor(options.keep ?? 100_000));
    this.#log = options.log ?? CONSOLE_LOG;
    this.#flushMs = options.flushMs ?? 100;
    this.#busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 100));
    let db: Database.Database | undefined;
    try {
      const opened = openFile(options.file, this.#busyTimeoutMs, this.#notWal);
      db = opened.db;
      this.#sql = opened.sql;
      this.#identity = opened.identity;
      this.#othersWrote = opened.othersWrote;
      this.#flushBatch = db.transaction(() => this.#writeBatch());
      this.#db = db;
      this.#load();
      this.#trim();
    } catch (e) {
      db?.close();
      throw new StoreError('store_unavailable', `cannot open the SQLite store ${options.file}: ${messageOf(e)}${adviceFor(e)}`, { cause: e });
    }
  }

  /** Operations that failed since open (writes, flushes, reads, unserialisable details); the store kept serving. */
  get errors(): number {
    return this.#failures.errors;
  }

  getBreaker(route: string): BreakerSnapshot | undefined {
    return this.#breakers.get(route);
  }

  putBreaker(route: string, snapshot: BreakerSnapshot): void {
    this.#breakers.set(route, snapshot);
    this.#writeThrough('breakers', route);
  }

  getCanaryState(route: string): CanaryRouteState | undefined {
    return this.#canary.get(route);
  }

  putCanaryState(route: string, state: CanaryRouteState): void {
    this.#canary.set(route, state);
    this.#writeThrough('canary', route);
  }

  canaryStates(): Map<string, CanaryRouteState> {
    return new Map(this.#canary);
  }

  putBlock(block: RuntimeBlock): void {
    this.#blocks.set(block.id, block);
    this.#writeThrough('blocks', block.id);
  }

  deleteBlock(id: string): boolean {
    if (!this.#blocks.delete(id)) return false;
    this.#writeThrough('blocks', id);
    return true;
  }

  blocks(): RuntimeBlock[] {
    return [...this.#blocks.values()];
  }

  getSetting(key: string): unknown {
    return this.#settings.get(key);
  }

  putSetting(key: string, value: unknown): void {
    this.#settings.set(key, value);
    this.#writeThrough('settings', key);
  }

  deleteSetting(key: string): boolean {
    if (!this.#settings.delete(key)) return false;
    this.#writeThrough('settings', key);
    return true;
  }

  health(): StoreHealth {
    const reason = this.#failures.reason;
    return { degraded: reason !== null, errors: this.#failures.errors, pending: this.#pending(), ...(reason !== null && { reason }) };
  }

  /** One instance per file: nobody else writes. */
  onChange(): () => void {
    return () => {};
  }

  appendAudit(event: AuditEvent): void {
    let detail: string;
    try {
      detail = JSON.stringify(event.detail);
    } catch (e) {
      // A detail that cannot be serialised (a BigInt, a cycle) must not poison the batch.
      this.#failures.miss();
      this.#log.warn({ store: 'sqlite', file: this.file, type: event.type, error: messageOf(e) }, 'audit detail not serialisable');
      detail = JSON.stringify({ unserialisable: messageOf(e) });
    }
    this.#hold(this.#audit, { event, detail });
  }

  audit(limit: number, filter: rows.AuditFilter = {}): AuditEvent[] {
    limit = Math.max(0, limit); // SQLite reads a negative LIMIT as none at all
    const held = this.#audit
      .map((a) => a.event)
      .filter((e) => rows.matchesAudit(e, filter))
      .reverse();
    const stored = this.#read('read audit', () => rows.readAudit(this.#sql, limit, filter));
    // Held rows are the newest appended, so on equal `at` they come first (the sort is stable).
    return [...held, ...stored].sort((a, b) => b.at - a.at).slice(0, limit);
  }

  appendLedger(entry: LedgerEntry): void {
    this.#hold(this.#ledger, entry);
  }

  ledger(limit: number): LedgerEntry[] {
    limit = Math.max(0, limit);
    const held = limit === 0 ? [] : this.#ledger.slice(-limit).reverse();
    if (held.length >= limit) return held;
    return [...held, ...this.#read('read ledger', () => rows.readLedger(this.#sql, limit - held.length))];
  }

  /** Writes held audit and ledger rows and retries failed writes, in one transaction. */
  flush(): void {
    this.#clearTimer();
    this.#followFile();
    if (this.#pending() === 0) return;
    try {
      this.#flushBatch();
      this.#audit = [];
      this.#ledger = [];
      for (const set of Object.values(this.#dirty)) set.clear();
      this.#ok();
    } catch (e) {
      this.#fail('flush', e);
      this.#schedule(RETRY_MS);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    this.#clearTimer();
    try {
      this.#db.close();
    } catch (e) {
      this.#fail('close', e);
    }
  }

  #load(): void {
    for (const { key, json } of this.#sql.breakers.all()) this.#loadJson(this.#breakers, 'breakers', key, json);
    for (const { key, json } of this.#sql.canary.all()) this.#loadJson(this.#canary, 'canary_state', key, json);
    for (const block of rows.readBlocks(this.#sql)) this.#blocks.set(block.id, block);
    for (const { key, json } of this.#sql.settings.all()) this.#loadJson(this.#settings, 'settings', key, json);
  }

  #loadJson<T>(into: Map<string, T>, table: string, key: string, json: string): void {
    try {
      into.set(key, JSON.parse(json) as T);
    } catch (e) {
      // One damaged row costs that route its history, not the whole store.
      this.#failures.miss();
      this.#log.warn({ store: 'sqlite', file: this.file, table, key, error: messageOf(e) }, 'SQLite store row skipped');
    }
  }

  #writeThrough(table: Keyed, key: string): void {
    this.#dirty[table].add(key);
    this.#followFile();
    // While the disk refuses writes (a lock held elsewhere, a full disk), each write-through
    // would fail again, after waiting on the event loop: the retry flush takes them together.
    if (this.#failures.active) return this.#schedule(RETRY_MS);
    try {
      this.#writeKey(table, key);
      this.#dirty[table].delete(key);
      this.#ok();
    } catch (e) {
      this.#fail(`write ${table}`, e);
      this.#schedule(RETRY_MS);
    }
  }

  /**
   * When the path names another file, or none (deleted, replaced by a restore), opens the file
   * there and marks everything held in memory for writing to it: the old file, unlinked or
   * not, would keep every later write from the next start.
   */
  #followFile(): void {
    if (this.#closed) return;
    if (!this.#lost && identityOf(this.file) === this.#identity) return this.#noticeOthers();
    if (!this.#lost) this.#log.error({ store: 'sqlite', file: this.file }, 'SQLite store file was deleted or replaced while Warden ran: writing the state it holds to a file at that path');
    this.#lost = true;
    let opened: ReturnType<typeof openFile>;
    try {
      opened = openFile(this.file, this.#busyTimeoutMs, this.#notWal);
    } catch (e) {
      this.#fail('reopen', e);
      this.#schedule(RETRY_MS);
      return;
    }
    try {
      this.#db.close();
    } catch {
      // The old connection is dropped either way.
    }
    ({ db: this.#db, sql: this.#sql, identity: this.#identity, othersWrote: this.#othersWrote } = opened);
    this.#flushBatch = this.#db.transaction(() => this.#writeBatch());
    this.#lost = false;
    const held: Record<Keyed, Map<string, unknown>> = { breakers: this.#breakers, canary: this.#canary, blocks: this.#blocks, settings: this.#settings };
    for (const table of Object.keys(held) as Keyed[]) for (const key of held[table].keys()) this.#dirty[table].add(key);
    this.#schedule(this.#flushMs);
  }

  /** Another process writing the file (a second instance on it) sees none of this one's state, nor this one its. */
  #noticeOthers(): void {
    if (this.#othersSaid || !this.#read('check the file', () => [this.#othersWrote()])[0]) return;
    this.#othersSaid = true;
    this.#log.warn({ store: 'sqlite', file: this.file }, 'Another process wrote to the SQLite store file: instances sharing a file do not see each other\'s changes; give each its own file, or share state through state.redis (during a rolling restart this is the other instance shutting down)');
  }

  readonly #notWal = (mode: unknown): void => this.#log.warn({ store: 'sqlite', file: this.file, journalMode: mode }, 'SQLite store is not in WAL mode');

  /** Makes the row match memory, whatever happened before: that is what makes a retry safe. */
  #writeKey(table: Keyed, key: string): void {
    if (table === 'breakers') {
      const snapshot = this.#breakers.get(key);
      if (snapshot) this.#sql.putBreaker.run(key, JSON.stringify(snapshot));
    } else if (table === 'canary') {
      const state = this.#canary.get(key);
      if (state) this.#sql.putCanary.run(key, JSON.stringify(state));
    } else if (table === 'settings') {
      if (this.#settings.has(key)) this.#sql.putSetting.run(key, JSON.stringify(this.#settings.get(key)));
      else this.#sql.deleteSetting.run(key);
    } else {
      const block = this.#blocks.get(key);
      if (block) rows.writeBlock(this.#sql, block);
      else this.#sql.deleteBlock.run(key);
    }
  }

  /** The body of the flush transaction; any throw rolls all of it back. */
  #writeBatch(): void {
    for (const [table, keys] of Object.entries(this.#dirty) as Array<[Keyed, Set<string>]>) {
      for (const key of keys) this.#writeKey(table, key);
    }
    for (const a of this.#audit) rows.writeAudit(this.#sql, a);
    for (const e of this.#ledger) rows.writeLedger(this.#sql, e);
    this.#sinceTrim += this.#audit.length + this.#ledger.length;
    // Trimming costs an index walk, so it runs once per ~1% of `keep` new rows.
    if (this.#sinceTrim >= Math.ceil(this.#keep / 100)) this.#trim();
  }

  #trim(): void {
    this.#sql.trimAudit.run(this.#keep - 1);
    this.#sql.trimLedger.run(this.#keep - 1);
    this.#sinceTrim = 0;
  }

  #hold<T>(list: T[], item: T): void {
    list.push(item);
    if (list.length > MAX_PENDING) {
      list.shift();
      this.#failures.dropped++;
    }
    this.#schedule(this.#flushMs);
  }

  #pending(): number {
    return this.#audit.length + this.#ledger.length + Object.values(this.#dirty).reduce((n, s) => n + s.size, 0);
  }

  #read<T>(op: string, read: () => T[]): T[] {
    try {
      return read();
    } catch (e) {
      this.#fail(op, e);
      return [];
    }
  }

  #schedule(ms: number): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => this.flush(), ms);
    // Held rows must not keep a finished process alive; close() writes them.
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #fail(op: string, e: unknown): void {
    if (!this.#failures.fail(`${op}: ${messageOf(e)}`)) return;
    // Retries must not wait for a lock either: they fail at once until it is free.
    this.#busyTimeout(0);
    this.#log.error(
      { store: 'sqlite', file: this.file, op, code: codeOf(e), error: messageOf(e) },
      'SQLite store operation failed; serving from memory, writes will be retried',
    );
  }

  #ok(): void {
    const ended = this.#failures.end();
    if (!ended) return;
    this.#busyTimeout(this.#busyTimeoutMs);
    this.#log.warn({ store: 'sqlite', file: this.file, ...ended }, 'SQLite store recovered');
  }

  #busyTimeout(ms: number): void {
    if (this.#closed) return;
    try {
      this.#db.pragma(`busy_timeout = ${ms}`);
    } catch {
      // A connection that cannot take a pragma fails its next write too, which is counted.
    }
  }
}
