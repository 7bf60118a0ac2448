import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdsAnswerEnd, peekUsage } from '../../src/protocol/peek.js';

const usageOf = (completion: unknown) => peekUsage(Buffer.from(typeof completion === 'string' ? completion : JSON.stringify(completion)));

test('the token counts are read out of a completion', () => {
  const completion = { id: 'x', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }], usage: { prompt_tokens: 12, completion_tokens: 345, total_tokens: 357 } };
  assert.deepEqual(usageOf(completion), { prompt_tokens: 12, completion_tokens: 345, total_tokens: 357 });
  assert.deepEqual(usageOf(JSON.stringify(completion, null, 2)), { prompt_tokens: 12, completion_tokens: 345, total_tokens: 357 });
});

test('nested details, other keys and strings with quotes and braces are skipped', () => {
  const usage = { cost: 'a "quoted" {brace}', path: 'C:\\dir\\', prompt_tokens_details: { cached_tokens: 5, prompt_tokens: 999 }, prompt_tokens: 7, completion_tokens: 8, total_tokens: 15, is_byok: false };
  assert.deepEqual(usageOf({ choices: [], usage }), { prompt_tokens: 7, completion_tokens: 8, total_tokens: 15 });
});

test('the top-level usage wins over the word in a reply, and no usage reads as null', () => {
  assert.deepEqual(usageOf({ choices: [{ message: { content: 'my "usage": {"prompt_tokens": 1}' } }], usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 } }), { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
  assert.equal(usageOf({ choices: [] }), null);
  assert.equal(usageOf({ choices: [], usage: null }), null);
  assert.equal(usageOf({ choices: [], usage: {} }), null);
  assert.equal(usageOf('{"choices":[],"usage":{"prompt_tokens":3'), null);
});

test('holdsAnswerEnd: a [DONE] or a finish_reason that is not null, never one quoted inside a string', () => {
  const event = (choice: unknown) => `data: ${JSON.stringify({ choices: [choice] })}\n\n`;
  const piece = event({ index: 0, delta: { content: 'Hi' }, finish_reason: null });
  assert.equal(holdsAnswerEnd(Buffer.from(piece + piece)), false);
  assert.equal(holdsAnswerEnd(Buffer.from(piece + event({ index: 0, delta: {}, finish_reason: 'stop' }))), true);
  assert.equal(holdsAnswerEnd(Buffer.from(`${piece}data: {"choices":[{"index":0,"delta":{},"finish_reason" : "length"}]}\n\n`)), true);
  assert.equal(holdsAnswerEnd(Buffer.from(`${piece}data: [DONE]\n\n`)), true);
  assert.equal(holdsAnswerEnd(Buffer.from(event({ index: 0, delta: { content: '"finish_reason":"stop"' }, finish_reason: null }))), false);
  assert.equal(holdsAnswerEnd(Buffer.alloc(0)), false);
});
