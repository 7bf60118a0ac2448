import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideEscalation, readSignals } from '../../src/routing/index.js';

const ESCALATION = { model: 'strong', threshold: 0.6, keywords: ['prove', '证明'], keywordFloor: 0.75, thinking: 'on' as const };
const ask = (content: string, extra: object = {}) => ({ model: 'chat', messages: [{ role: 'user', content }], ...extra });

test('a high difficulty hint escalates and is named as the cause', () => {
  const d = decideEscalation(readSignals(ask('hi'), '0.95', ESCALATION.keywords), ESCALATION);
  assert.equal(d.escalate, true);
  assert.equal(d.cause, 'hint=0.95');
  assert.equal(d.score, 0.95);
});

test('a keyword sets a floor; no signal stays below the threshold', () => {
  const kw = decideEscalation(readSignals(ask('Please prove that √2 is irrational'), '0.1', ESCALATION.keywords), ESCALATION);
  assert.equal(kw.escalate, true);
  assert.equal(kw.cause, 'keyword="prove"');
  assert.equal(kw.score, 0.75);
  const easy = decideEscalation(readSignals(ask('hello'), undefined, ESCALATION.keywords), ESCALATION);
  assert.equal(easy.escalate, false);
});

test('a keyword matches as a word or phrase in spaced scripts, anywhere in Chinese or Japanese', () => {
  const keywordOf = (content: string) => readSignals(ask(content), undefined, ['prove', 'step by step', '证明', 'C++']).keyword;
  assert.equal(keywordOf('I approve of this improvement'), null, 'not inside other words');
  assert.equal(keywordOf('Prove it.'), 'prove');
  assert.equal(keywordOf('can you (prove) this?'), 'prove');
  assert.equal(keywordOf('Explain it step by step, please'), 'step by step');
  assert.equal(keywordOf('请证明这个定理'), '证明', 'no spaces between words in Chinese');
  assert.equal(keywordOf('is C++ hard?'), 'C++', 'a keyword ending in a symbol needs no boundary there');
});

test('many tools and a deep dialogue escalate without a hint; a bad header is ignored', () => {
  const tools = Array.from({ length: 8 }, (_, i) => ({ type: 'function', function: { name: `t${i}` } }));
  const messages = Array.from({ length: 14 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'step' }));
  const d = decideEscalation(readSignals({ model: 'chat', messages, tools }, 'very hard', []), ESCALATION);
  assert.equal(d.signals.hint, null);
  assert.equal(d.escalate, true);
  assert.match(d.cause, /^tools=8$/);
});
