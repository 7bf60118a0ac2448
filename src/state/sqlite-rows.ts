// The SQLite store's statements, prepared once per connection, and the mapping between
// rows and the Store's types. No policy here: errors go up to SqliteStore.
import type BetterSqlite3 from 'better-sqlite3';
import type { AuditEvent, LedgerEntry, RuntimeBlock } from './store.js';

export interface KeyedJson {
  key: string;
  json: string;
}

interface BlockRow {
  id: string;
  route: string;
  kind: RuntimeBlock['kind'];
  reason: string;
  created_at: number;
  until: number | null;
  by: string | null;
}

interface AuditRow {
  at: number;
  type: string;
  route: string | null;
  detail: string;
}

interface LedgerRow {
  at: number;
  request_id: string;
  role: string;
  primary_route: string;
  reason: string;
  final_route: string | null;
  outcome: string;
  attempts: number;
  latency_ms: number;
}

export interface AuditFilter {
  route?: string;
  type?: string;
  since?: number;
}

export type Statements = ReturnType<typeof prepare>;

// Newest first is by `at`, then by insertion, so the (route, at), (type, at) and (at)
// indexes serve both the filter and the order.
const AUDIT = 'SELECT at, type, route, detail FROM audit';
const AUDIT_ORDER = 'at >= ? ORDER BY at DESC, id DESC LIMIT ?';

export function prepare(db: BetterSqlite3.Database) {
  return {
    breakers: db.prepare<[], KeyedJson>('SELECT route AS key, json FROM breakers'),
    putBreaker: db.prepare<[string, string]>(
      'INSERT INTO breakers (route, json) VALUES (?, ?) ON CONFLICT (route) DO UPDATE SET json = excluded.json',
    ),
    canary: db.prepare<[], KeyedJson>('SELECT route AS key, json FROM canary_state'),
    putCanary: db.prepare<[string, string]>(
      'INSERT INTO canary_state (route, json) VALUES (?, ?) ON CONFLICT (route) DO UPDATE SET json = excluded.json',
    ),
    blocks: db.prepare<[], BlockRow>('SELECT id, route, kind, reason, created_at, "until", "by" FROM blocks ORDER BY rowid'),
    putBlock: db.prepare<[string, string, string, string, number, number | null, string | null]>(
      `INSERT INTO blocks (id, route, kind, reason, created_at, "until", "by") VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET route = excluded.route, kind = excluded.kind, reason = excluded.reason,
         created_at = excluded.created_at, "until" = excluded."until", "by" = excluded."by"`,
    ),
    deleteBlock: db.prepare<[string]>('DELETE FROM blocks WHERE id = ?'),
    settings: db.prepare<[], KeyedJson>('SELECT key, json FROM settings'),
    putSetting: db.prepare<[string, string]>(
      'INSERT INTO settings (key, json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET json = excluded.json',
    ),
    deleteSetting: db.prepare<[string]>('DELETE FROM settings WHERE key = ?'),
    insertAudit: db.prepare<[number, string, string | null, string]>(
      'INSERT INTO audit (at, type, route, detail) VALUES (?, ?, ?, ?)',
    ),
    auditAll: db.prepare<[number, number], AuditRow>(`${AUDIT} WHERE ${AUDIT_ORDER}`),
    auditByRoute: db.prepare<[string, number, number], AuditRow>(`${AUDIT} WHERE route = ? AND ${AUDIT_ORDER}`),
    auditByType: db.prepare<[string, number, number], AuditRow>(`${AUDIT} WHERE type = ? AND ${AUDIT_ORDER}`),
    auditByBoth: db.prepare<[string, string, number, number], AuditRow>(
      `${AUDIT} WHERE route = ? AND type = ? AND ${AUDIT_ORDER}`,
    ),
    insertLedger: db.prepare<[number, string, string, string, string, string | null, string, number, number]>(
      `INSERT INTO ledger (at, request_id, role, primary_route, reason, final_route, outcome, attempts, latency_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    ledger: db.prepare<[number], LedgerRow>(
      `SELECT at, request_id, role, primary_route, reason, final_route, outcome, attempts, latency_ms
       FROM ledger ORDER BY id DESC LIMIT ?`,
    ),
    // Keeps the newest `keep` rows: everything below the keep-th newest id goes.
    trimAudit: db.prepare<[number]>('DELETE FROM audit WHERE id < (SELECT id FROM audit ORDER BY id DESC LIMIT 1 OFFSET ?)'),
    trimLedger: db.prepare<[number]>('DELETE FROM ledger WHERE id < (SELECT id FROM ledger ORDER BY id DESC LIMIT 1 OFFSET ?)'),
  };
}

export function writeBlock(s: Statements, b: RuntimeBlock): void {
  s.putBlock.run(b.id, b.route, b.kind, b.reason, b.createdAt, b.until, b.by);
}

export function readBlocks(s: Statements): RuntimeBlock[] {
  return s.blocks.all().map((r) => ({
    id: r.id,
    route: r.route,
    kind: r.kind,
    reason: r.reason,
    createdAt: r.created_at,
    until: r.until,
    by: r.by,
  }));
}

/** An audit event with its detail already encoded, so a flush never fails on serialising. */
export interface EncodedAudit {
  event: AuditEvent;
  detail: string;
}

export function writeAudit(s: Statements, a: EncodedAudit): void {
  s.insertAudit.run(a.event.at, a.event.type, a.event.route, a.detail);
}

/** Whether an event passes the filter, for rows not yet written (SQL filters the rest). */
export function matchesAudit(e: AuditEvent, filter: AuditFilter): boolean {
  return (
    (filter.route === undefined || e.route === filter.route) &&
    (filter.type === undefined || e.type === filter.type) &&
    (filter.since === undefined || e.at >= filter.since)
  );
}

export function readAudit(s: Statements, limit: number, filter: AuditFilter): AuditEvent[] {
  const since = filter.since ?? Number.MIN_SAFE_INTEGER;
  const { route, type } = filter;
  const rows =
    route !== undefined && type !== undefined
      ? s.auditByBoth.all(route, type, since, limit)
      : route !== undefined
        ? s.auditByRoute.all(route, since, limit)
        : type !== undefined
          ? s.auditByType.all(type, since, limit)
          : s.auditAll.all(since, limit);
  return rows.map((r) => ({ at: r.at, type: r.type, route: r.route, detail: parseDetail(r.detail) }));
}

export function writeLedger(s: Statements, e: LedgerEntry): void {
  s.insertLedger.run(e.at, e.requestId, e.role, e.primaryRoute, e.reason, e.finalRoute, e.outcome, e.attempts, e.latencyMs);
}

export function readLedger(s: Statements, limit: number): LedgerEntry[] {
  return s.ledger.all(limit).map((r) => ({
    at: r.at,
    requestId: r.request_id,
    role: r.role,
    primaryRoute: r.primary_route,
    reason: r.reason,
    finalRoute: r.final_route,
    outcome: r.outcome,
    attempts: r.attempts,
    latencyMs: r.latency_ms,
  }));
}

function parseDetail(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}
