// The quality gate of a role: what it judges, and what it leaves alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/config/index.js';
import { QualityGate } from '../../src/routing/gate.js';

const role = (checks: string) =>
  parseConfig(`
providers: { p: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" } }
models: { m: { provider: p, model: x } }
roles: { chat: { tier: degrade, models: [m], checks: [${checks}] } }
`, 'test', {}).roles.chat!;

test('a tool call has no text to judge: the text checks pass it, an empty text answer still fails', () => {
  const gate = new QualityGate('chat', role('nonempty, language, minlen'));
  assert.equal(gate.judge({ text: '', finishReason: 'tool_calls' }, 'en').passed, true);
  const empty = gate.judge({ text: '', finishReason: 'stop' }, 'en');
  assert.equal(empty.failed?.reason, 'empty');
});

test('the hold-back window may end mid-sentence: only a finished answer is held to its ending', () => {
  const gate = new QualityGate('chat', role('refusal, prefix'));
  const start = 'Don\u2019t worry about being late,';
  assert.equal(gate.judgeStart(start, 'en').passed, true);
  assert.equal(gate.judgeStart('{"city":', 'en').passed, true);
  assert.equal(gate.judge({ text: start, finishReason: 'stop' }, 'en').failed?.reason, 'stopped_mid_sentence');
  assert.equal(gate.judgeStart('I cannot help with that request.', 'en').failed?.reason, 'refusal_phrase', 'a refusal opening still fails early');
});

test('a schema that does not compile (a config that skipped validation) never throws at a reply: the check asks for JSON alone and the gate says why', () => {
  const schemaRole = (schema: object) => ({ ...role('nonempty'), checks: ['schema' as const], schema: { ...schema } });
  const gate = new QualityGate('chat', schemaRole({ type: 'objekt' }));
  assert.match(gate.schemaProblem ?? '', /^the JSON Schema does not compile: .*type must be equal to one of the allowed values/);
  assert.equal(gate.judge({ text: '{"city":"Paris"}', finishReason: 'stop' }, 'en').passed, true);
  assert.equal(gate.judge({ text: 'Paris, of course.', finishReason: 'stop' }, 'en').failed?.reason, 'not_json');
  assert.equal(new QualityGate('chat', schemaRole({ type: 'object' })).schemaProblem, null);
});
