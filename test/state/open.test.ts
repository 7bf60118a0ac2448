import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore, SqliteStore, isStoreError, openStore } from '../../src/state/index.js';

const dir = mkdtempSync(join(tmpdir(), 'warden-open-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('openStore gives the store the config names', async () => {
  const memory = openStore({ memory: true });
  assert.ok(memory instanceof MemoryStore);
  const sqlite = openStore({ sqlite: join(dir, 'warden.db') }, { keep: 10 });
  assert.ok(sqlite instanceof SqliteStore);
  assert.equal(sqlite.kind, 'sqlite');
  await Promise.all([memory.close(), sqlite.close()]);
});

test('Redis is refused as not yet supported, without echoing a URL that may hold a password', () => {
  assert.throws(
    () => openStore({ redis: 'redis://:hunter2@cache:6379' }),
    (e: unknown) => isStoreError(e) && e.code === 'store_unsupported' && /openGateway/.test(e.message) && !e.message.includes('hunter2'),
  );
});
