import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogSink } from '../../src/telemetry/log-sink.js';
import { until } from '../helpers/until.js';

function sinkOnFile() {
  const file = join(mkdtempSync(join(tmpdir(), 'warden-sink-')), 'out.log');
  const fd = openSync(file, 'a');
  return { file, fd, sink: new LogSink(fd) };
}

test('lines arrive whole and in order across many chunks, multi-byte text and a line longer than a chunk', async () => {
  const { file, fd, sink } = sinkOnFile();
  const expected: string[] = [];
  for (let i = 0; i < 5000; i++) {
    const line = i === 2500 ? `${JSON.stringify({ i, big: 'x'.repeat(100_000) })}\n` : `${JSON.stringify({ i, text: i % 7 === 0 ? 'ünïcødé 日本語 ✓' : 'plain' })}\n`;
    expected.push(line);
    assert.equal(sink.write(line), true);
  }
  // Full chunks are written as they fill; the rest when flushed.
  await until(() => readFileSync(file, 'utf8').length > 0, 'full chunks are written without a flush', 2_000);
  // The rest goes out with the 200 ms flush, after the full chunks, in order.
  await until(() => readFileSync(file, 'utf8') === expected.join(''), 'every line, in order', 3_000);
  closeSync(fd);
  assert.equal(sink.dropped, 0);
});

test('flushSync writes what waits at once (the exit path)', () => {
  const { file, fd, sink } = sinkOnFile();
  sink.write('{"a":1}\n');
  sink.write('{"b":"ü"}\n');
  assert.equal(readFileSync(file, 'utf8'), '', 'nothing written before a chunk fills or the flush');
  sink.flushSync();
  assert.equal(readFileSync(file, 'utf8'), '{"a":1}\n{"b":"ü"}\n');
  closeSync(fd);
});
