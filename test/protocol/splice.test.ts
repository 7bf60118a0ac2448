import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spliceModel } from '../../src/protocol/splice.js';

const splice = (raw: string, from: string, to: string) => spliceModel(Buffer.from(raw), from, to)?.toString() ?? null;

test('the model value is replaced in the client bytes, everything else untouched', () => {
  assert.equal(splice('{"model":"chat","messages":[{"role":"user","content":"hi"}],"seed":1}', 'chat', 'deepseek/deepseek-chat'), '{"model":"deepseek/deepseek-chat","messages":[{"role":"user","content":"hi"}],"seed":1}');
  assert.equal(splice('{ "messages": [], "model" : "chat" }', 'chat', 'gpt-4o-mini'), '{ "messages": [], "model" : "gpt-4o-mini" }');
  assert.equal(splice('{"model":"a\\"b"}', 'a"b', 'x'), '{"model":"x"}');
});

test('ambiguous bodies fall back to re-serialising', () => {
  assert.equal(splice('{"model":"chat","tools":[{"function":{"parameters":{"properties":{"model":{"type":"string"}}}}}]}', 'chat', 'x'), null);
  assert.equal(splice('{"messages":[]}', 'chat', 'x'), null);
  assert.equal(splice('{"model":"chat2"}', 'chat', 'x'), null);
  // A message that mentions "model" is escaped inside its string, so the key stays unique.
  assert.equal(splice('{"model":"chat","messages":[{"role":"user","content":"say \\"model\\""}]}', 'chat', 'x'), '{"model":"x","messages":[{"role":"user","content":"say \\"model\\""}]}');
});
