// The byte-level pieces of asking for a stream's usage on a client's behalf: the field put into
// a body without re-serialising it, and the usage taken out of the events before the client.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spliceField } from '../../src/protocol/splice.js';
import { holdsUsageObject, RelayedUsage, takeUsage, usageEventStart } from '../../src/protocol/usage-events.js';

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

test('a usage-only event at the start is dropped on its bytes, whatever its spacing and line ends; anything less plain is parsed as before', () => {
  const done = 'data: [DONE]\n\n';
  for (const [event, rest] of [
    [chunk({ choices: [], usage: USAGE }), done],
    [`data:{"id":"c1","choices": [ ],"usage": ${JSON.stringify(USAGE)}}\r\n\r\n`, 'data: [DONE]\r\n\r\n'],
  ] as const) {
    const events = Buffer.from(event + rest);
    const taken = takeUsage(events);
    assert.deepEqual(taken.usage, USAGE);
    assert.equal(taken.bytes.toString(), rest);
    assert.equal(taken.bytes.buffer, events.buffer, 'the rest is a view of the bytes read, not a copy');
  }
  // Choices beside the usage, or a second usage object after it: parsed, the usage taken out of each.
  const withChoice = chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: USAGE });
  assert.equal(takeUsage(Buffer.from(withChoice + done)).bytes.toString(), chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) + done);
  const twice = chunk({ choices: [], usage: { ...USAGE, total_tokens: 7 } }) + chunk({ choices: [], usage: USAGE }) + done;
  assert.deepEqual(takeUsage(Buffer.from(twice)), { bytes: Buffer.from(done), usage: USAGE });
});

test('usageEventStart finds the event that holds the usage object, so the events before it go out untouched', () => {
  const content = chunk({ choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }], usage: null });
  const usageOnly = chunk({ choices: [], usage: USAGE });
  assert.equal(usageEventStart(Buffer.from(content + usageOnly + 'data: [DONE]\n\n')), Buffer.byteLength(content));
  assert.equal(usageEventStart(Buffer.from(usageOnly)), 0);
  assert.equal(usageEventStart(Buffer.from(content.replace('\n\n', '\r\n\r\n') + usageOnly)), Buffer.byteLength(content) + 2);
  assert.equal(usageEventStart(Buffer.from(content + 'data: [DONE]\n\n')), -1);
});

// vLLM's continuous_usage_stats: every chunk carries the running usage, and a usage-only chunk ends the stream.
const running = (completion: number, choices: unknown[]) => chunk({ choices, usage: { prompt_tokens: 3, completion_tokens: completion, total_tokens: 3 + completion } });
const piece = (content: string) => [{ index: 0, delta: { content }, finish_reason: null }];

test('RelayedUsage taking usage out removes every running usage object, and keeps the last (not their sum)', () => {
  const relayed = new RelayedUsage(true);
  const out: Buffer[] = [];
  const write = (bytes: Buffer) => void out.push(bytes);
  // One read with several running events, then one with a single event, then the end.
  relayed.relay(Buffer.from(running(0, [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]) + running(1, piece('Hel')) + running(2, piece('lo'))), write, true);
  relayed.relay(Buffer.from(running(3, piece('!'))), write, true);
  relayed.relay(Buffer.from(running(3, [{ index: 0, delta: {}, finish_reason: 'stop' }]) + running(3, []) + 'data: [DONE]\n\n'), write, true);
  const text = Buffer.concat(out).toString();
  assert.doesNotMatch(text, /"usage"/, 'no usage reached the client');
  const events = text.split('\n\n').filter(Boolean);
  assert.equal(events.length, 6, 'every event with choices went out, the usage-only one did not');
  assert.equal(events.at(-1), 'data: [DONE]');
  assert.deepEqual(relayed.usage, { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 });
});

test('RelayedUsage passes running usage through untouched when the client asked for it, and reads the last', () => {
  const relayed = new RelayedUsage(false);
  const bytes = Buffer.from(running(1, piece('Hi')) + running(2, piece('!')) + running(2, []) + 'data: [DONE]\n\n');
  const out: Buffer[] = [];
  relayed.relay(bytes, (b) => void out.push(b), true);
  assert.equal(Buffer.concat(out).toString(), bytes.toString());
  assert.deepEqual(relayed.usage, { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
});

test('with one usage chunk at the end, the events before it go out as the very bytes they came in', () => {
  const relayed = new RelayedUsage(true);
  const content = chunk({ choices: piece('Hello'), usage: null });
  const finish = chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  const bytes = Buffer.from(content + finish + chunk({ choices: [], usage: USAGE }) + 'data: [DONE]\n\n');
  const out: Buffer[] = [];
  relayed.relay(bytes, (b) => void out.push(b), true);
  assert.equal(out[0]!.buffer, bytes.buffer, 'the first write is a view of the bytes read, not a copy');
  assert.equal(Buffer.concat(out).toString(), content + finish + 'data: [DONE]\n\n');
  assert.deepEqual(relayed.usage, USAGE);
});
