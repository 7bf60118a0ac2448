import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SseReader } from '../../src/protocol/sse.js';

test('events split across chunks, CRLF framing, comments and multi-line data', () => {
  const reader = new SseReader();
  const data = (chunk: string) => reader.push(Buffer.from(chunk)).map((e) => e.data);
  assert.deepEqual(data(': OPENROUTER PROCESSING\n\ndata: {"a"'), [null]);
  assert.deepEqual(data(':1}\n\ndata: x\r\n\r\ndata: one\ndata: two\n\n'), ['{"a":1}', 'x', 'one\ntwo']);
  assert.deepEqual(data('data: [DONE]'), []);
  assert.deepEqual(reader.end().map((e) => e.data), ['[DONE]']);
});

test('a multi-byte character cut between chunks is decoded whole', () => {
  const reader = new SseReader();
  const bytes = Buffer.from('data: 巴黎\n\n');
  assert.deepEqual(reader.push(bytes.subarray(0, 8)), []);
  assert.deepEqual(reader.push(bytes.subarray(8)).map((e) => e.data), ['巴黎']);
});
