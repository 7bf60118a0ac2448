import { test } from 'node:test';
import assert from 'node:assert/strict';
import { peekUsage } from '../../src/protocol/peek.js';

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
