// The SQLite store's schema. `user_version` holds how many migrations a file has had; each
// migration runs once, in its own transaction, when a file is opened. Append, never edit.
import type BetterSqlite3 from 'better-sqlite3';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE breakers (route TEXT PRIMARY KEY, json TEXT NOT NULL);
   CREATE TABLE canary_state (route TEXT PRIMARY KEY, json TEXT NOT NULL);
   CREATE TABLE blocks (
     id TEXT PRIMARY KEY, route TEXT NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL,
     created_at INTEGER NOT NULL, "until" INTEGER, "by" TEXT);
   CREATE TABLE audit (
     id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, type TEXT NOT NULL,
     route TEXT, detail TEXT NOT NULL);
   CREATE INDEX audit_route_at ON audit (route, at);
   CREATE INDEX audit_type_at ON audit (type, at);
   CREATE INDEX audit_at ON audit (at);
   CREATE TABLE ledger (
     id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, request_id TEXT NOT NULL,
     role TEXT NOT NULL, primary_route TEXT NOT NULL, reason TEXT NOT NULL, final_route TEXT,
     outcome TEXT NOT NULL, attempts INTEGER NOT NULL, latency_ms INTEGER NOT NULL);`,
  `CREATE TABLE settings (key TEXT PRIMARY KEY, json TEXT NOT NULL);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings a file up to SCHEMA_VERSION; refuses a file written by a newer Warden. */
export function migrate(db: BetterSqlite3.Database): void {
  const version = Number(db.pragma('user_version', { simple: true }));
  if (version > SCHEMA_VERSION) {
    throw new Error(`schema version ${version} is newer than this Warden understands (${SCHEMA_VERSION}): run the Warden that wrote it, or point state.sqlite at another file`);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
