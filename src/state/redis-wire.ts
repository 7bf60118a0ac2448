// What the Redis store puts on the wire: key names, change notices, and the writes it owes
// Redis while it cannot reach it. Free of I/O so it can be tested on its own.
import type { ChainableCommander } from 'ioredis';
import type { AuditEvent, LedgerEntry } from './store.js';

/** The kinds kept as hashes, one field per route or block id. */
export type HashKind = 'breakers' | 'canary' | 'blocks' | 'settings';
/** What `onChange` reports: a hash field or an audit event written by another instance. */
export type ChangeKind = HashKind | 'audit';

export const HASH_KINDS: readonly HashKind[] = ['breakers', 'canary', 'blocks', 'settings'];

export interface RedisKeys {
  hash(kind: HashKind): string;
  readonly audit: string;
  readonly ledger: string;
  readonly changes: string;
  /** Set once per Redis lifetime: when it changes or vanishes, Redis lost what it held. */
  readonly epoch: string;
  /** Ids of the newest appends per list, so a replayed append lands once. */
  ids(list: 'audit' | 'ledger'): string;
}

export function keys(prefix: string): RedisKeys {
  return {
    hash: (kind) => `${prefix}${kind}`,
    audit: `${prefix}audit`,
    ledger: `${prefix}ledger`,
    changes: `${prefix}changes`,
    epoch: `${prefix}epoch`,
    ids: (list) => `${prefix}${list}:ids`,
  };
}

/**
 * A change notice on the changes channel. Hash notices carry only the key, so a reader always
 * fetches the current value rather than trusting one that may already be stale; audit notices
 * carry the event, because the list has no per-event key to fetch.
 */
export type Notice =
  | { kind: HashKind; key: string; origin: string }
  | { kind: 'audit'; key: string; origin: string; event: AuditEvent };

export function parseNotice(raw: string): Notice | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v['key'] !== 'string' || typeof v['origin'] !== 'string') return null;
  if (v['kind'] === 'audit') {
    const e = v['event'];
    if (typeof e !== 'object' || e === null) return null;
    return { kind: 'audit', key: v['key'], origin: v['origin'], event: e as AuditEvent };
  }
  if (typeof v['kind'] === 'string' && (HASH_KINDS as readonly string[]).includes(v['kind'])) {
    return { kind: v['kind'] as HashKind, key: v['key'], origin: v['origin'] };
  }
  return null;
}

/** An append, with an id unique to it (instance and sequence) so that replaying it is harmless. */
export type ListOp = { kind: 'audit'; id: string; json: string; event: AuditEvent } | { kind: 'ledger'; id: string; json: string; entry: LedgerEntry };

/**
 * Appends once per id: a write whose reply was lost (Redis killed after it persisted it) is
 * replayed from the backlog, and must not land twice. The ids of the newest `keep` appends are
 * remembered in a sorted set timed by Redis' clock.
 * KEYS: list, ids. ARGV: json, id, keep, channel ('' for none), notice.
 */
export const APPEND_ONCE = `if redis.call('ZSCORE', KEYS[2], ARGV[2]) then return 0 end
local t = redis.call('TIME')
redis.call('ZADD', KEYS[2], tonumber(t[1]) * 1000000 + tonumber(t[2]), ARGV[2])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(ARGV[3]) + 1))
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[3]) - 1)
if ARGV[4] ~= '' then redis.call('PUBLISH', ARGV[4], ARGV[5]) end
return 1`;

/** The pipeline method `APPEND_ONCE` is defined as (see RedisLink). */
export interface AppendOnce {
  wardenAppend(list: string, ids: string, json: string, id: string, keep: number, channel: string, notice: string): unknown;
}

/**
 * Writes held while Redis is away. Hash keys are kept as a set, because replaying the current
 * local value of each gives the same end state as replaying every put in order; list appends
 * are kept in order and bounded, the oldest dropped first.
 */
export class Backlog {
  readonly dirty: Record<HashKind, Set<string>> = { breakers: new Set(), canary: new Set(), blocks: new Set(), settings: new Set() };
  list: ListOp[] = [];
  dropped = 0;

  constructor(private readonly max: number) {}

  get size(): number {
    return this.list.length + HASH_KINDS.reduce((n, k) => n + this.dirty[k].size, 0);
  }

  markDirty(kind: HashKind, key: string): void {
    this.dirty[kind].add(key);
  }

  push(op: ListOp): void {
    this.list.push(op);
    if (this.list.length > this.max) {
      const over = this.list.length - this.max;
      this.list.splice(0, over);
      this.dropped += over;
    }
  }

  /** Takes everything, leaving the backlog empty; a failed replay puts it back with `restore`. */
  take(): { dirty: Record<HashKind, string[]>; list: ListOp[] } {
    const out = {
      dirty: { breakers: [...this.dirty.breakers], canary: [...this.dirty.canary], blocks: [...this.dirty.blocks], settings: [...this.dirty.settings] },
      list: this.list,
    };
    for (const k of HASH_KINDS) this.dirty[k].clear();
    this.list = [];
    return out;
  }

  /** Puts a failed replay back in front of anything queued since, so the order holds. */
  restore(taken: { dirty: Record<HashKind, string[]>; list: ListOp[] }): void {
    for (const k of HASH_KINDS) for (const key of taken.dirty[k]) this.dirty[k].add(key);
    const newer = this.list;
    this.list = [];
    for (const op of [...taken.list, ...newer]) this.push(op);
  }
}

/** Adds one append (and, for audit, its notice) to a pipeline; the list is trimmed to `keep`, newest first. */
export function queueList(pipe: ChainableCommander, k: RedisKeys, keep: number, origin: string, op: ListOp): void {
  const list = op.kind === 'audit' ? k.audit : k.ledger;
  // Ledger entries are one per request and read only by the admin view: not announced.
  const notice = op.kind === 'audit' ? JSON.stringify({ kind: 'audit', key: op.event.route ?? '', origin, event: op.event } satisfies Notice) : '';
  (pipe as unknown as AppendOnce).wardenAppend(list, k.ids(op.kind), op.json, op.id, keep, op.kind === 'audit' ? k.changes : '', notice);
}

/** A pipeline's results when every command succeeded; otherwise throws the first error. */
export function answered(results: [Error | null, unknown][] | null): [Error | null, unknown][] {
  const failed = results?.find(([e]) => e !== null);
  if (!results || failed) throw failed?.[0] ?? new Error('pipeline discarded');
  return results;
}

/** The password a Redis URL carries ('' for none), only to blank it out of error messages. */
export function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}
