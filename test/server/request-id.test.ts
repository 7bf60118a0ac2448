import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestIds } from '../../src/server/request-id.js';

test('request ids are version 8 UUIDs, unique within a process and between processes', () => {
  const a = new RequestIds();
  const b = new RequestIds();
  const seen = new Set<string>();
  for (let i = 0; i < 10_000; i++) {
    for (const id of [a.next(), b.next()]) {
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.ok(!seen.has(id), `${id} was given twice`);
      seen.add(id);
    }
  }
});
