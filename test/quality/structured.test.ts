// schema and fact: the JSON failures kept apart, and normalised exact answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertSchema, detectors, isQualityError, normaliseAnswer } from '../../src/quality/index.js';

const SCHEMA = { type: 'object', required: ['city', 'country'], properties: { city: { type: 'string' }, country: { type: 'string' } }, additionalProperties: false };
const schema = (text: string, strictJson = true) => detectors.schema({ text, finishReason: 'stop' }, { schema: SCHEMA, strictJson });

describe('schema', () => {
  it('passes bare JSON that matches', () => {
    assert.equal(schema('{"city":"Paris","country":"France"}').verdict, 'pass');
    assert.equal(schema('\n{\n  "city": "Paris",\n  "country": "France"\n}\n').verdict, 'pass');
  });
  it('keeps apart not JSON, cut-off JSON, wrapped JSON, a missing field and a wrong shape', () => {
    assert.equal(schema('The capital is Paris.').reason, 'not_json');
    const cut = schema('{"city":"Paris","coun');
    assert.equal(cut.reason, 'not_json');
    assert.equal(cut.evidence?.truncated, true);
    assert.equal(schema('Sure! Here is the JSON: {"city":"Paris","country":"France"}').reason, 'json_wrapped_in_prose');
    assert.equal(schema('```json\n{"city":"Paris","country":"France"}\n```').reason, 'json_in_code_fence');
    const missing = schema('{"city":"Paris"}');
    assert.equal(missing.reason, 'missing_field');
    assert.equal(missing.evidence?.field, 'country');
    assert.equal(schema('{"city":"Paris","country":7}').reason, 'wrong_shape');
    assert.equal(schema('{"city":"Paris","country":"France","extra":1}').reason, 'wrong_shape');
  });
  it('lets lenient roles take JSON out of a fence or prose', () => {
    assert.equal(schema('```json\n{"city":"Paris","country":"France"}\n```', false).verdict, 'pass');
    assert.equal(schema('Here: {"city":"Paris","country":"France"} — done.', false).verdict, 'pass');
  });
  it('rejects a schema that does not compile with a typed error', () => {
    assert.throws(() => assertSchema({ type: 'no-such-type' }), (e: unknown) => isQualityError(e) && e.code === 'invalid_schema');
  });
});

describe('fact', () => {
  const fact = (text: string) => detectors.fact({ text, finishReason: 'stop' }, { expected: ['巴黎', 'Paris'] });
  it('accepts any listed answer after folding case, width, punctuation and whitespace', () => {
    for (const text of ['巴黎', '巴黎。', ' **Paris** ', 'PARIS.', 'Ｐａｒｉｓ', '"Paris"']) assert.equal(fact(text).verdict, 'pass', text);
    assert.equal(normaliseAnswer('  Ｐａｒｉｓ！ '), 'paris');
  });
  it('fails other answers and sentences, and abstains without an expected answer', () => {
    assert.equal(fact('Lyon').reason, 'wrong_answer');
    assert.equal(fact('The capital of France is Paris.').reason, 'wrong_answer');
    assert.equal(detectors.fact({ text: 'Paris', finishReason: 'stop' }, {}).verdict, 'inconclusive');
  });
});
