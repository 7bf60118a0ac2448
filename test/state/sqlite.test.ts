import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { SqliteStore, isStoreError, type SqliteStoreOptions } from '../../src/state/index.js';
import { adviceFor } from '../../src/state/sqlite-advice.js';
import { SCHEMA_VERSION } from '../../src/state/sqlite-schema.js';
import { recorder } from '../helpers/log-recorder.js';
import { OPEN_BREAKER, block, entry, event, storeContract } from './store.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'warden-state-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const fresh = (name = 'state'): string => join(dir, `${name}-${++n}.db`);

const open = (file: string, options: Partial<SqliteStoreOptions> = {}) => new SqliteStore({ file, log: recorder(), ...options });

storeContract('sqlite', {
  make: () => open(fresh()),
  reopen: async (store) => {
    await store.close();
    return open(store.file);
  },
});

describe('SqliteStore', () => {
  test('creates the parent directory, uses WAL and records the schema version', async () => {
    const file = join(dir, 'nested', 'deeper', 'warden.db');
    const store = open(file);
    store.putBreaker('a', OPEN_BREAKER);
    const other = new Database(file, { readonly: true });
    try {
      assert.equal(other.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(other.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.equal(other.prepare('SELECT count(*) AS n FROM breakers').pluck().get(), 1, 'a put writes through at once');
    } finally {
      other.close();
      await store.close();
    }
  });

  test('appended audit and ledger rows reach the file on the flush timer, without close', async () => {
    const file = fresh();
    const store = open(file, { flushMs: 10 });
    store.appendAudit(event(1, 'breaker_open', 'a'));
    store.appendLedger(entry(1, 'req-1'));
    const count = (table: string) => {
      const other = new Database(file, { readonly: true });
      try {
        return other.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
      } finally {
        other.close();
      }
    };
    assert.equal(count('audit'), 0, 'held until the timer');
    for (let waited = 0; count('audit') === 0 && waited < 2_000; waited += 20) await sleep(20);
    assert.equal(count('audit'), 1);
    assert.equal(count('ledger'), 1);
    await store.close();
  });

  test('audit and ledger are trimmed to `keep` rows, newest kept', async () => {
    const file = fresh();
    const store = open(file, { keep: 5 });
    for (let i = 1; i <= 12; i++) {
      store.appendAudit(event(i, 'tick', null, { i }));
      store.appendLedger(entry(i, `req-${i}`));
      store.flush();
    }
    await store.close();
    const again = open(file, { keep: 5 });
    assert.deepEqual(
      again.audit(100).map((e) => e.at),
      [12, 11, 10, 9, 8],
    );
    assert.deepEqual(
      again.ledger(100).map((e) => e.requestId),
      ['req-12', 'req-11', 'req-10', 'req-9', 'req-8'],
    );
    await again.close();
  });

  test('a failed write (file locked by another writer) is logged once, counted, never thrown, and retried', async () => {
    const file = fresh();
    const log = recorder();
    const store = open(file, { log, busyTimeoutMs: 0 });
    store.putBlock(block('b1'));
    store.putBreaker('a', { ...OPEN_BREAKER, state: 'closed' });

    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE'); // holds the write lock
    assert.doesNotThrow(() => {
      store.putBreaker('a', OPEN_BREAKER);
      store.deleteBlock('b1');
      store.putBlock(block('b2'));
      store.appendAudit(event(5, 'breaker_open', 'a'));
      store.appendLedger(entry(5, 'req-5'));
      store.flush();
    });
    // Each write tried alone would wait out the busy timeout, blocking every request: once the
    // first failed, the rest wait for the retry flush, which tries the disk once for them all.
    assert.equal(store.errors, 2, 'the first write-through and one flush tried the disk, not every write');
    const errors = log.lines.filter((l) => l.level === 'error');
    assert.equal(errors.length, 1, 'a streak of failures is logged once');
    assert.equal(errors[0]?.obj.code, 'SQLITE_BUSY');
    assert.equal(errors[0]?.obj.file, file);
    assert.deepEqual({ ...store.health(), errors: 0 }, { degraded: true, errors: 0, pending: 5, reason: 'flush: database is locked' }, '/readyz can say why');

    // Memory stays the truth while the disk refuses.
    assert.deepEqual(store.getBreaker('a'), OPEN_BREAKER);
    assert.deepEqual(
      store.blocks().map((b) => b.id),
      ['b2'],
    );
    assert.deepEqual(
      store.audit(10).map((e) => e.type),
      ['breaker_open'],
    );
    assert.deepEqual(
      store.ledger(10).map((e) => e.requestId),
      ['req-5'],
    );

    other.exec('ROLLBACK');
    other.close();
    store.flush();
    assert.equal(store.errors, 2);
    assert.equal(store.health().reason, undefined);
    assert.ok(log.lines.some((l) => l.level === 'warn' && l.msg.includes('recovered')));
    await store.close();

    const again = open(file);
    assert.deepEqual(again.getBreaker('a'), OPEN_BREAKER);
    assert.deepEqual(
      again.blocks().map((b) => b.id),
      ['b2'],
      'the block deleted while locked stays deleted after a restart',
    );
    assert.equal(again.audit(10).length, 1);
    assert.equal(again.ledger(10).length, 1);
    await again.close();
  });

  test('a store file deleted while running is written again at its path, with the state held in memory', async () => {
    const file = fresh('deleted');
    const log = recorder();
    const store = open(file, { log });
    store.putBlock(block('before'));
    store.putBreaker('a', OPEN_BREAKER);
    store.flush();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    store.putBlock(block('after'));
    store.appendAudit(event(9, 'block_added', 'r'));
    store.flush();
    assert.deepEqual(store.health(), { degraded: false, errors: 0, pending: 0 });
    await store.close();
    const errors = log.lines.filter((l) => l.level === 'error');
    assert.equal(errors.length, 1, 'said once');
    assert.match(errors[0]!.msg, /deleted or replaced/);
    assert.equal(errors[0]!.obj.file, file);

    const again = open(file);
    assert.deepEqual(again.blocks().map((b) => b.id).sort(), ['after', 'before'], 'what was stored before the deletion, and after it');
    assert.deepEqual(again.getBreaker('a'), OPEN_BREAKER);
    assert.deepEqual(again.audit(10).map((e) => e.at), [9]);
    await again.close();
  });

  test('two instances on one file: each says once that another process writes it', async () => {
    const file = fresh('shared');
    const [logA, logB] = [recorder(), recorder()];
    const a = open(file, { log: logA });
    const b = open(file, { log: logB });
    a.putBlock(block('from-a'));
    assert.deepEqual(logA.lines, [], 'nobody else wrote yet');
    b.putBlock(block('from-b'));
    a.putBreaker('r', OPEN_BREAKER);
    b.putBlock(block('again-b'));
    a.appendAudit(event(1, 'x', null));
    a.flush();
    for (const log of [logA, logB]) {
      assert.deepEqual(log.lines.map((l) => l.level), ['warn'], JSON.stringify(log.lines));
      assert.match(log.lines[0]!.msg, /Another process wrote to the SQLite store file.*state\.redis/);
      assert.equal(log.lines[0]!.obj.file, file);
    }
    await Promise.all([a.close(), b.close()]);
  });

  test('an audit detail that cannot be serialised is counted, not thrown', async () => {
    const store = open(fresh());
    assert.doesNotThrow(() => store.appendAudit(event(1, 'odd', null, { big: 10n })));
    assert.equal(store.errors, 1);
    store.flush();
    assert.equal(store.audit(1).length, 1);
    await store.close();
  });

  test('a file that is not a database is refused with store_unavailable, naming the file and what to do, and left as it was', () => {
    const file = fresh('not-a-db');
    const text = 'routes:\n  - groq/llama-3.3-70b\n'.repeat(100);
    writeFileSync(file, text);
    assert.throws(
      () => open(file),
      (e: unknown) => isStoreError(e) && e.code === 'store_unavailable' && e.message.includes(file) && /move it aside to start with empty state/.test(e.message),
    );
    assert.equal(readFileSync(file, 'utf8'), text);
  });

  test('a store file damaged in the middle is refused the same way, and left as it was', async () => {
    const file = fresh('damaged');
    const store = open(file);
    store.putBlock(block('kept'));
    for (let i = 0; i < 3_000; i++) store.appendAudit(event(i, 'filler', 'r', { pad: 'x'.repeat(100) }));
    await store.close();
    const bytes = readFileSync(file);
    bytes.fill(0xde, 20 * 4096, 21 * 4096); // one page of the audit table
    writeFileSync(file, bytes);
    assert.throws(
      () => open(file),
      (e: unknown) => isStoreError(e) && /malformed/.test(e.message) && e.message.includes(file) && /move it aside/.test(e.message),
    );
    assert.deepEqual(readFileSync(file), bytes, 'the refused open wrote nothing');
  });

  test('a directory where the file should be is refused with store_unavailable', () => {
    const file = fresh('a-directory');
    mkdirSync(file);
    assert.throws(
      () => open(file),
      (e: unknown) => isStoreError(e) && e.code === 'store_unavailable' && e.message.includes(file) && /point state\.sqlite at a writable path/.test(e.message),
    );
  });

  test('every way a store file cannot be opened comes with what to do (a read-only mount fails mkdir with ENOENT)', () => {
    const fail = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CANTOPEN', 'SQLITE_READONLY_DIRECTORY', 'EACCES', 'EROFS', 'ENOENT', 'SQLITE_BUSY', 'SQLITE_FULL']) {
      assert.match(adviceFor(fail(code)), /^\. \S/, code);
    }
    assert.equal(adviceFor(new Error('something else')), '');
  });

  test('a file from a newer schema is refused rather than misread', () => {
    const file = fresh();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    assert.throws(
      () => open(file),
      (e: unknown) => isStoreError(e) && e.code === 'store_unavailable' && /newer/.test(e.message) && /run the Warden that wrote it/.test(e.message),
    );
  });
});
