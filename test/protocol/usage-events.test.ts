// The byte-level pieces of asking for a stream's usage on a client's behalf: the field put into
// a body without re-serialising it, and the usage taken out of the events before the client.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spliceField } from '../../src/protocol/splice.js';
import { holdsUsageObject, takeUsage, usageEventStart } from '../../src/protocol/usage-events.js';

const FIELD = Buffer.from('"stream_options":{"include_usage":true}');
const chunk = (fields: Record<string, unknown>) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', ...fields })}\n\n`;
const USAGE = { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 };

test('spliceField adds the field as the first member, with or without other members, and refuses what is not an object', () => {
  assert.deepEqual(JSON.parse(spliceField(Buffer.from(' {"model":"m","stream":true}'), FIELD)!.toString()), { stream_options: { include_usage: true }, model: 'm', stream: true });
  assert.deepEqual(JSON.parse(spliceField(Buffer.from('{ }'), FIELD)!.toString()), { stream_options: { include_usage: true } });
  assert.equal(spliceField(Buffer.from('[1]'), FIELD), null);
  assert.equal(spliceField(Buffer.from('{'), FIELD), null);
});

test('a usage object is told from the "usage": null some upstreams put in every chunk, and from the word in an answer', () => {
  assert.equal(holdsUsageObject(Buffer.from(chunk({ choices: [], usage: USAGE }))), true);
  assert.equal(holdsUsageObject(Buffer.from(chunk({ choices: [{ index: 0, delta: { content: 'hi' } }], usage: null }))), false);
  assert.equal(holdsUsageObject(Buffer.from(chunk({ choices: [{ index: 0, delta: { content: 'the "usage": {x} field' } }] }))), false);
});

test('takeUsage drops a usage-only event, strips usage from an event with choices, and leaves the rest as it was', () => {
  const content = chunk({ choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }], usage: null });
  const usageOnly = chunk({ choices: [], usage: USAGE });
  const { bytes, usage } = takeUsage(Buffer.from(content + usageOnly + 'data: [DONE]\n\n'));
  assert.deepEqual(usage, USAGE);
  assert.equal(bytes.toString(), content + 'data: [DONE]\n\n');

  const both = chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: USAGE });
  const taken = takeUsage(Buffer.from(both));
  assert.deepEqual(taken.usage, USAGE);
  const events = taken.bytes.toString().split('\n\n').filter(Boolean);
  assert.equal(events.length, 1);
  assert.deepEqual(JSON.parse(events[0]!.slice(6)), { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
});

test('usageEventStart finds the event that holds the usage object, so the events before it go out untouched', () => {
  const content = chunk({ choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }], usage: null });
  const usageOnly = chunk({ choices: [], usage: USAGE });
  assert.equal(usageEventStart(Buffer.from(content + usageOnly + 'data: [DONE]\n\n')), Buffer.byteLength(content));
  assert.equal(usageEventStart(Buffer.from(usageOnly)), 0);
  assert.equal(usageEventStart(Buffer.from(content.replace('\n\n', '\r\n\r\n') + usageOnly)), Buffer.byteLength(content) + 2);
  assert.equal(usageEventStart(Buffer.from(content + 'data: [DONE]\n\n')), -1);
});
