// The SQLite store's file: opening it ready for use (WAL, schema), and telling whether the
// path still names the file that is open — a file deleted or replaced under a running
// process keeps taking writes that no restart will ever read.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './sqlite-schema.js';
import * as rows from './sqlite-rows.js';

export interface OpenFile {
  db: Database.Database;
  sql: rows.Statements;
  /** Which file this is (see `identityOf`). */
  identity: string | null;
  /** True when another connection committed to the file since the last call (PRAGMA data_version). */
  othersWrote(): boolean;
}

/** Opens (creating it and its folder when missing) and migrates; `journalMode` hears a mode other than WAL. */
export function openFile(file: string, busyTimeoutMs: number, journalMode: (mode: unknown) => void): OpenFile {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') journalMode(mode);
    db.pragma('synchronous = NORMAL');
    migrate(db);
    let version: unknown = db.pragma('data_version', { simple: true });
    const othersWrote = () => {
      const last = version;
      version = db.pragma('data_version', { simple: true });
      return version !== last;
    };
    return { db, sql: rows.prepare(db), identity: identityOf(file), othersWrote };
  } catch (e) {
    db.close();
    throw e;
  }
}

/** The device and inode of the file at `path`, or null when there is none. */
export function identityOf(path: string): string | null {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return null;
  }
}
