import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SseEventCheck } from '../../src/protocol/sse-check.js';

const CHUNK = 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n';
const STREAM = `: OPENROUTER PROCESSING\n\n${CHUNK}data: {"choices":[{"index":0,"delta":{"content":" there"}}]}\r\n\r\ndata: {"a":\ndata: 1}\n\nevent: x\nid: 2\n\ndata: [DONE]\n\n`;

/** Feeds `text` in pieces of `size` bytes; returns what was let through and the check. */
function feed(text: string, size: number): { out: string; check: SseEventCheck } {
  const check = new SseEventCheck();
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length && check.bad === null; at += size) out.push(check.take(bytes.subarray(at, at + size)));
  if (check.bad === null) out.push(check.end());
  return { out: Buffer.concat(out).toString(), check };
}

test('a well-formed stream goes through whole however it is cut, events only once complete', () => {
  for (const size of [1, 2, 3, 7, 64, STREAM.length]) {
    const { out, check } = feed(STREAM, size);
    assert.equal(out, STREAM, `pieces of ${size}`);
    assert.equal(check.bad, null);
    assert.equal(check.sawDone, true);
    assert.equal(check.sawError, false);
  }
  const check = new SseEventCheck();
  assert.equal(check.take(Buffer.from(CHUNK + 'data: {"choices"')).toString(), CHUNK, 'the unfinished event waits');
  assert.equal(check.take(Buffer.from(':[]}\n')).toString(), '', 'a line is not an event until its blank line');
  assert.equal(check.take(Buffer.from('\n')).toString(), 'data: {"choices":[]}\n\n');
});

test('an event that is not a JSON object or [DONE] stops the relay at the event before it, however it is cut', () => {
  for (const garbage of ['data: {not json\n\n', 'data: {"choices":[{"index":0,"delta":{"content":\n\n', 'data: <html><body>Bad Gateway</body></html>\n\n', 'data: 42\r\n\r\n', ': hi\ndata: nope\n\n']) {
    for (const size of [1, 5, 1000]) {
      const { out, check } = feed(CHUNK + garbage + CHUNK + 'data: [DONE]\n\n', size);
      assert.equal(out, CHUNK, `${JSON.stringify(garbage)} in pieces of ${size}`);
      assert.ok(check.bad, garbage);
    }
  }
  // Lines without data (other fields, comments, blank data) are nothing a client acts on.
  assert.equal(feed('retry: 10\n\ndata:\n\n<html>\n\n', 4).check.bad, null);
});

test('the end of the stream: a last event without its blank line is checked too', () => {
  assert.equal(feed(`${CHUNK}data: [DONE]`, 9).out, `${CHUNK}data: [DONE]`);
  assert.equal(feed(`${CHUNK}data: [DONE]\n`, 9).check.sawDone, true);
  const cut = feed(`${CHUNK}data: {"choices":[`, 9);
  assert.equal(cut.out, CHUNK);
  assert.equal(cut.check.bad, '{"choices":[');
});

test('an error object as an event of its own is the upstream\'s error event', () => {
  assert.equal(feed(`${CHUNK}data: {"error":{"message":"boom"}}\n\n`, 4).check.sawError, true);
  assert.equal(feed(`${CHUNK}data:  { "error": {"message":"boom"}}\n\n`, 100).check.sawError, true);
  assert.equal(feed('data: {"choices":[],"x":{"error":null}}\n\n', 100).check.sawError, false);
});
