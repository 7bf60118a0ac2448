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

test('events come out one at a time; what is not taken stays for later, across chunks', () => {
  const reader = new SseReader();
  reader.feed('data: 1\n\ndata: 2\r\n\r\ndata: 3\n\ndata: 4');
  assert.equal(reader.next()?.data, '1');
  assert.equal(reader.next()?.data, '2');
  reader.feed('\n\n: ping\n\ndata: 5\r\n\r\n');
  assert.deepEqual([reader.next(), reader.next(), reader.next(), reader.next()], [{ data: '3' }, { data: '4' }, { data: null }, { data: '5' }]);
  // A chunk used up to its last CRLF boundary leaves nothing behind: no phantom event.
  assert.equal(reader.next(), null);
  assert.equal(reader.next(), null);
  assert.deepEqual(reader.end(), []);
});

test('chunks that each end on a CRLF boundary come out whole, one event each', () => {
  const reader = new SseReader();
  assert.deepEqual(reader.push('data: a\r\n\r\n'), [{ data: 'a' }]);
  assert.deepEqual(reader.push('data: b\r\n\r\n'), [{ data: 'b' }]);
  assert.deepEqual(reader.push('data: c\r\n\r\ndata: d\n\n'), [{ data: 'c' }, { data: 'd' }]);
  assert.deepEqual(reader.push(''), []);
});

test('many events in one chunk, LF-framed after a CRLF-framed one, are all found in order', () => {
  const reader = new SseReader();
  const body = `data: first\r\n\r\n${Array.from({ length: 50 }, (_, i) => `data: {"i":${i}}\n\n`).join('')}data: [DONE]\n\n`;
  const events = reader.push(body).map((e) => e.data);
  assert.equal(events.length, 52);
  assert.equal(events[0], 'first');
  assert.equal(events[50], '{"i":49}');
  assert.equal(events[51], '[DONE]');
});

test('the same events whatever the chunking: split at every byte, including inside a blank line and a character', () => {
  const body = Buffer.from(': ping\n\ndata: {"c":"巴黎"}\r\n\r\ndata: one\ndata: two\n\ndata: é\r\n\r\ndata: [DONE]\n\n');
  const whole = new SseReader().push(body);
  assert.deepEqual(
    whole.map((e) => e.data),
    [null, '{"c":"巴黎"}', 'one\ntwo', 'é', '[DONE]'],
  );
  for (let cut = 0; cut <= body.length; cut++) {
    const reader = new SseReader();
    const events = [...reader.push(body.subarray(0, cut)), ...reader.push(body.subarray(cut))];
    assert.deepEqual(events, whole, `cut at byte ${cut}`);
    assert.deepEqual(reader.end(), []);
  }
  const reader = new SseReader();
  const events = [];
  for (let i = 0; i < body.length; i++) events.push(...reader.push(body.subarray(i, i + 1)));
  assert.deepEqual(events, whole, 'one byte at a time');
});

test('a stream cut off mid-event hands the rest to end(), a trailing CR dropped', () => {
  const reader = new SseReader();
  assert.deepEqual(reader.push('data: a\n\ndata: b\r'), [{ data: 'a' }]);
  assert.deepEqual(reader.end(), [{ data: 'b' }]);
  assert.deepEqual(reader.end(), []);
});
