// The Redis store's link to Redis: two connections (commands, and pub/sub for change notices),
// the writes owed to Redis while it is away, and recovery — replay the held writes, check that
// Redis still holds Warden's state (its epoch), reload the copy, then serve from it again. The
// Store API in front of it is redis.ts; the link never blocks a caller.
import { randomUUID } from 'node:crypto';
import { Redis, type ChainableCommander } from 'ioredis';
import type { LocalCopy } from './redis-copy.js';
import { RedisCoordination } from './redis-coordination.js';
import type { Ring } from './redis-ring.js';
import { APPEND_ONCE, Backlog, HASH_KINDS, answered, keys, parseNotice, passwordOf, queueList, type ChangeKind, type HashKind, type ListOp, type Notice, type RedisKeys } from './redis-wire.js';
import { CONSOLE_LOG, type RedisStoreLog, type RedisStoreOptions } from './redis-options.js';
import type { AuditEvent, LedgerEntry } from './store.js';

type ChangeListener = (kind: ChangeKind, key: string) => void;

/** What the link keeps in step with Redis, owned by the store. */
export interface LinkedState {
  copy: LocalCopy;
  audit: Ring<AuditEvent>;
  ledger: Ring<LedgerEntry>;
  /** Audit and ledger entries kept (the lists are trimmed to it). */
  keep: number;
  /** Called for each key another instance changed (and each key a reload changed). */
  emit: ChangeListener;
}

/** After a command fails on a live connection, when to try the backlog again. */
const RETRY_MS = 1_000;

export class RedisLink {
  /** Tags this instance's change notices, so it ignores its own. */
  readonly instance: string = randomUUID();
  readonly prefix: string;
  /** Settles once the first snapshot is loaded, or after the connect timeout (then degraded). */
  readonly ready: Promise<void>;

  readonly #keys: RedisKeys;
  readonly #keep: number;
  readonly #commandTimeout: number;
  readonly #coordinationAnswerMs: number | undefined;
  readonly #log: RedisStoreLog;
  readonly #cmd: Redis;
  readonly #sub: Redis;
  readonly #local: LocalCopy;
  readonly #audit: Ring<AuditEvent>;
  readonly #ledger: Ring<LedgerEntry>;
  readonly #emit: ChangeListener;
  readonly #backlog: Backlog;
  readonly #inflight = new Set<Promise<void>>();
  #up = false;
  #loaded = false;
  #outageLogged = false;
  #closing = false;
  #errors = 0;
  /** Why the store is degraded, in Redis' or the socket's words (see `reason`). */
  #reason: string | null = null;
  /** The command connection's latest error since it was last ready: why a close happened. */
  #lastError: string | null = null;
  /** The URL's password, kept only to blank it out of error messages. */
  readonly #secret: string;
  #retry: NodeJS.Timeout | null = null;
  readonly #ping: NodeJS.Timeout;
  #settle: () => void = () => {};
  #coordination: RedisCoordination | null = null;
  #appendSeq = 0;
  /** The Redis lifetime this copy belongs to (see #checkEpoch). */
  #epoch: string | null = null;

  /** Connects in the background; `ready` settles once the first snapshot is in `copy`. */
  constructor(options: RedisStoreOptions, held: LinkedState) {
    this.prefix = options.prefix ?? 'warden:';
    this.#keys = keys(this.prefix);
    this.#secret = passwordOf(options.url);
    this.#keep = held.keep;
    this.#log = options.log ?? CONSOLE_LOG;
    this.#local = held.copy;
    this.#audit = held.audit;
    this.#ledger = held.ledger;
    this.#emit = held.emit;
    this.#backlog = new Backlog(Math.max(1, options.maxBacklog ?? 10_000));
    const connectTimeout = options.connectTimeoutMs ?? 1_000;
    // Commands fail at once when disconnected instead of waiting in ioredis' own queue: the
    // backlog here is bounded and coalesced, and the caller must never wait on Redis.
    const common = { connectTimeout, retryStrategy: (times: number) => Math.min(100 * times, 1_000), maxRetriesPerRequest: 0 };
    // A Redis that stops answering on a live connection (frozen, or cut off without a reset)
    // sends no `close`: only a deadline on each command tells, and sends the store degraded.
    this.#commandTimeout = Math.max(1, options.commandTimeoutMs ?? 2_000);
    this.#coordinationAnswerMs = options.coordinationAnswerMs;
    this.#cmd = new Redis(options.url, { ...common, commandTimeout: this.#commandTimeout, enableOfflineQueue: false, autoResendUnfulfilledCommands: false });
    this.#cmd.defineCommand('wardenAppend', { numberOfKeys: 2, lua: APPEND_ONCE });
    // No deadline here: a SUBSCRIBE given up on client-side would still hold on the server.
    this.#sub = new Redis(options.url, { ...common, enableOfflineQueue: false, autoResubscribe: false });
    this.ready = new Promise<void>((resolve) => (this.#settle = resolve));
    const timer = setTimeout(() => {
      if (!this.#loaded) this.#down(this.#reason ?? (this.#lastError ? `not reachable at start: ${this.#lastError}` : 'not reachable at start'));
      this.#settle();
    }, connectTimeout);
    timer.unref();

    this.#cmd.on('ready', () => this.#onReady());
    // A refused connection (wrong password, maxclients) ends in a close: the error says why.
    this.#cmd.on('close', () => this.#down(this.#lastError ?? 'connection closed'));
    this.#cmd.on('error', (e: Error) => {
      this.#errors++;
      this.#lastError = this.#words(e);
    });
    this.#sub.on('error', () => this.#errors++);
    this.#sub.on('message', (_channel: string, raw: string) => this.#onNotice(raw));
    // Writes notice a hung Redis; without any (healthy traffic writes nothing) only this does,
    // and meanwhile coordination gets no answers: no probe slot, no canary lease.
    this.#ping = setInterval(() => {
      if (this.#up && !this.#closing) this.#cmd.ping().catch((e: unknown) => this.#failed(e));
    }, options.pingMs ?? 5_000);
    this.#ping.unref();
    this.#sub.on('ready', () => {
      // Subscribed afresh on every connect; a reload covers what was said while it was away.
      this.#sub.subscribe(this.#keys.changes).then(
        () => {
          if (this.#up) void this.#reload();
        },
        () => this.#errors++,
      );
    });
  }

  /** False while writes are held locally because Redis cannot be reached or refused one, until the held writes landed. */
  get up(): boolean {
    return this.#up && !this.#outageLogged;
  }

  /** While not up: why, as Redis or the socket said it (`WRONGPASS …`, `Command timed out`); never the URL. */
  get reason(): string | null {
    return this.up ? null : (this.#reason ?? 'connecting');
  }

  /** Failed commands and connection errors since open; the store kept serving. */
  get errors(): number {
    return this.#errors;
  }

  /** Writes waiting for Redis, and appends dropped because the backlog was full. */
  get backlog(): { pending: number; dropped: number } {
    return { pending: this.#backlog.size, dropped: this.#backlog.dropped };
  }

  /** Probe slots, leases and the instance list, on this store's connection. */
  get coordination(): RedisCoordination {
    this.#coordination ??= new RedisCoordination({ redis: this.#cmd, prefix: this.prefix, instance: this.instance, up: () => this.#up, failed: () => this.#errors++, answerWithinMs: this.#coordinationAnswerMs });
    return this.#coordination;
  }

  /** Sends what is owed if it can, then quits both connections. */
  async close(): Promise<void> {
    await this.ready;
    this.#closing = true;
    if (this.#retry) clearTimeout(this.#retry);
    clearInterval(this.#ping);
    await Promise.all([...this.#inflight]);
    if (this.#up && this.#backlog.size > 0) await this.#replay();
    await Promise.all([this.#cmd, this.#sub].map((c) => this.#quit(c)));
  }

  /** QUIT, waited for at most one command timeout: a Redis that does not answer is just dropped. */
  async #quit(c: Redis): Promise<void> {
    if (c.status === 'ready') {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#commandTimeout)));
      await Promise.race([c.quit().then(() => undefined, () => undefined), late]);
      clearTimeout(timer);
    }
    c.disconnect();
  }

  /** Sends the copy's current value of one key (or its deletion) and announces it. */
  writeHash(kind: HashKind, key: string): void {
    if (!this.#up) return this.#backlog.markDirty(kind, key);
    const pipe = this.#cmd.pipeline();
    if (!this.#queueHash(pipe, kind, key)) return;
    this.#exec(pipe, () => this.#backlog.markDirty(kind, key));
  }

  /** A fresh id for an append. */
  nextId(): string {
    return `${this.instance}:${++this.#appendSeq}`;
  }

  /** Appends to the audit or ledger list (audit is announced). */
  writeList(op: ListOp): void {
    if (!this.#up) return this.#backlog.push(op);
    const pipe = this.#cmd.pipeline();
    queueList(pipe, this.#keys, this.#keep, this.instance, op);
    this.#exec(pipe, () => this.#backlog.push(op));
  }

  /** Adds the current local value of one key (or its deletion) and its notice to a pipeline. */
  #queueHash(pipe: ChainableCommander, kind: HashKind, key: string): boolean {
    let json: string | null;
    try {
      json = this.#local.encode(kind, key);
    } catch (e) {
      this.#unserialisable(kind, e);
      return false;
    }
    const hash = this.#keys.hash(kind);
    if (json === null) pipe.hdel(hash, key);
    else pipe.hset(hash, key, json);
    pipe.publish(this.#keys.changes, JSON.stringify({ kind, key, origin: this.instance } satisfies Notice));
    return true;
  }

  /** Runs a pipeline; if any part fails, `requeue` holds the write and the store goes degraded. */
  #exec(pipe: ChainableCommander, requeue: () => void): Promise<void> {
    const done = pipe.exec().then((results) => void answered(results)).catch((e: unknown) => {
      requeue();
      this.#failed(e);
    });
    this.#inflight.add(done);
    void done.finally(() => this.#inflight.delete(done));
    return done;
  }

  #failed(e: unknown): void {
    this.#errors++;
    this.#down(this.#words(e));
    // A live connection that refused a command (out of memory, say) sends no new `ready`.
    if (!this.#retry && !this.#closing) {
      this.#retry = setTimeout(() => {
        this.#retry = null;
        if (!this.#up && this.#cmd.status === 'ready') this.#onReady();
      }, RETRY_MS);
      this.#retry.unref();
    }
  }

  #down(reason: string): void {
    // Also while closing: a write that timed out then must not be replayed into the same hang.
    this.#up = false;
    this.#reason = reason;
    if (this.#closing || this.#outageLogged) return;
    this.#outageLogged = true;
    this.#log.warn({ store: 'redis', prefix: this.prefix, reason }, 'Redis store degraded: serving from the local copy and holding writes');
  }

  #onReady(): void {
    this.#lastError = null;
    if (this.#closing) return;
    void this.#recover();
  }

  /**
   * Back in service only once Redis has answered: a connection can be `ready` (or still open)
   * to a Redis that then hangs, and the epoch check is the first round trip that tells.
   * Until then writes stay held and coordination answers alone.
   */
  async #recover(): Promise<void> {
    if (!(await this.#checkEpoch()) || this.#closing) return;
    this.#up = true;
    // Replay first, then reload on the same connection: Redis runs them in that order, so
    // the reload already contains what this instance wrote while it was away.
    const replayed = this.#replay();
    await this.#reload();
    await replayed;
    if (!this.#loaded) {
      this.#loaded = true;
      this.#settle();
    }
    // Recovered only once Redis took the held writes: one that answers but refuses them (an
    // ACL without PUBLISH, out of memory) stays one outage, not a recovery each retry.
    if (this.#up && this.#outageLogged) {
      this.#outageLogged = false;
      this.#log.info({ store: 'redis', prefix: this.prefix }, 'Redis store recovered: held writes replayed');
    }
  }

  /**
   * A Redis that restarted without persistence (or was flushed) comes back empty, and a reload
   * would then erase every instance's breakers, blocks and quarantines. The epoch key tells:
   * when the one seen before is gone, this instance writes its whole copy back before reloading.
   */
  async #checkEpoch(): Promise<boolean> {
    let current: string | null;
    try {
      // SELECT first, alone: ioredis carries on in database 0 when the URL's database does not
      // exist, which would mix Warden's keys with whatever lives there; this makes it a refusal.
      await this.#cmd.select(this.#cmd.options.db ?? 0);
      const results = answered(await this.#cmd.pipeline().set(this.#keys.epoch, randomUUID(), 'NX').get(this.#keys.epoch).exec());
      current = (results[1]![1] as string | null) ?? null;
    } catch (e) {
      // Not answered (a timeout reads as no epoch, which must not pass for a lost state).
      this.#failed(e);
      return false;
    }
    const lost = this.#epoch !== null && current !== this.#epoch;
    this.#epoch = current;
    if (!lost) return true;
    let keys = 0;
    for (const kind of HASH_KINDS) {
      for (const key of this.#local.values(kind).keys()) {
        this.#backlog.markDirty(kind, key);
        keys++;
      }
    }
    this.#log.warn({ store: 'redis', prefix: this.prefix, keys }, 'Redis came back without Warden\'s state (restarted without persistence?): writing this instance\'s copy back');
    return true;
  }

  #replay(): Promise<void> {
    const taken = this.#backlog.take();
    if (taken.list.length === 0 && HASH_KINDS.every((k) => taken.dirty[k].length === 0)) return Promise.resolve();
    const pipe = this.#cmd.pipeline();
    for (const op of taken.list) queueList(pipe, this.#keys, this.#keep, this.instance, op);
    for (const kind of HASH_KINDS) {
      for (const key of taken.dirty[kind]) {
        // Sent again now: a reload asked before this (the subscriber's, on reconnect) read
        // Redis without it and must not undo it once the backlog no longer holds the key.
        this.#local.touch(kind, key);
        this.#queueHash(pipe, kind, key);
      }
    }
    return this.#exec(pipe, () => this.#backlog.restore(taken));
  }

  /** Reads every hash and both lists into the local copy, keeping what was written since it was asked. */
  async #reload(): Promise<void> {
    const asked = this.#local.ask();
    try {
      await this.#reloadAsked(asked);
    } finally {
      this.#local.answered();
    }
  }

  async #reloadAsked(asked: number): Promise<void> {
    const marks = { audit: this.#audit.mark, ledger: this.#ledger.mark };
    const pipe = this.#cmd.pipeline();
    for (const kind of HASH_KINDS) pipe.hgetall(this.#keys.hash(kind));
    pipe.lrange(this.#keys.audit, 0, this.#keep - 1).lrange(this.#keys.ledger, 0, this.#keep - 1);
    let results: [Error | null, unknown][];
    try {
      results = answered(await pipe.exec());
    } catch (e) {
      return this.#failed(e);
    }
    HASH_KINDS.forEach((kind, i) => {
      const { changed, bad } = this.#local.applyAll(kind, results[i]![1] as Record<string, string>, asked, this.#held);
      this.#errors += bad;
      for (const key of changed) this.#emit(kind, key);
    });
    const lists = HASH_KINDS.length;
    this.#errors += this.#audit.load(results[lists]![1] as string[], marks.audit);
    this.#errors += this.#ledger.load(results[lists + 1]![1] as string[], marks.ledger);
  }

  /** A key with a write still owed to Redis: what Redis says about it is older. */
  readonly #held = (kind: HashKind, key: string): boolean => this.#backlog.dirty[kind].has(key);

  #onNotice(raw: string): void {
    const notice = parseNotice(raw);
    if (!notice || notice.origin === this.instance || this.#closing) return;
    if (notice.kind === 'audit') {
      if (this.#audit.pushUnlessRecent(notice.event)) this.#emit('audit', notice.key);
      return;
    }
    if (!this.#up) return; // the reload on recovery catches up
    const { kind, key } = notice;
    const asked = this.#local.ask();
    this.#cmd
      .hget(this.#keys.hash(kind), key)
      .then(
        (raw) => {
          if (this.#local.applyField(kind, key, raw, asked, this.#held)) this.#emit(kind, key);
        },
        () => this.#errors++,
      )
      .catch(() => this.#errors++) // a field that is not Warden's
      .finally(() => this.#local.answered());
  }

  /** JSON for Redis; a value that cannot be serialised stays local only and is counted. */
  encode(value: unknown, kind: string): string | null {
    try {
      return JSON.stringify(value);
    } catch (e) {
      this.#unserialisable(kind, e);
      return null;
    }
  }

  /** An error's message with the URL's password blanked out, should a message ever echo it. */
  #words(e: unknown): string {
    const message = e instanceof Error ? e.message : String(e);
    return this.#secret ? message.split(this.#secret).join('***') : message;
  }

  #unserialisable(kind: string, e: unknown): void {
    this.#errors++;
    this.#log.error({ store: 'redis', kind, error: e instanceof Error ? e.message : String(e) }, 'Redis store cannot serialise a value; kept locally only');
  }
}
