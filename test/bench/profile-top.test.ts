import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { topSelfTime } from '../../bench/overhead/profile-top.js';

test('a sample that spans a frozen spell counts as a long sample, not as the spell', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-profile-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const frame = (functionName: string) => ({ functionName, url: 'file:///x/dist/src/a.js', lineNumber: 0 });
  const file = join(dir, 'p.cpuprofile');
  // Sample i lasts timeDeltas[i + 1] µs: parse 3 ms, emit 2 ms plus a 5-s SIGSTOP before the next sample.
  writeFileSync(file, JSON.stringify({
    nodes: [{ id: 1, callFrame: frame('parse') }, { id: 2, callFrame: frame('emit') }],
    samples: [1, 1, 1, 2, 2, 1],
    timeDeltas: [0, 1000, 1000, 1000, 1000, 5_000_000],
  }));
  const rows = topSelfTime(file);
  const ms = Object.fromEntries(rows.map((r) => [r.name, r.ms]));
  // The gap is capped at ten times the typical sample (10 ms): emit gets 1 + 10 ms, not 5,001.
  assert.deepEqual(ms, { emit: 11, parse: 3 });
});
