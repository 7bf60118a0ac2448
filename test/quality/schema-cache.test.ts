// Compiled JSON Schemas are bounded: one compilation per distinct schema text while it is
// held, the least recently used dropped past the capacity, and a validator handed out
// before keeps working after its schema was dropped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isQualityError, SchemaValidators } from '../../src/quality/index.js';

const needs = (field: string) => ({ type: 'object', required: [field], properties: { [field]: { type: 'string' } } });

test('the same schema in new objects (a reloaded config) compiles once', () => {
  const cache = new SchemaValidators(4);
  const first = cache.validatorFor(needs('city'));
  for (let i = 0; i < 10; i++) assert.equal(cache.validatorFor(needs('city')), first);
  assert.deepEqual(cache.stats(), { held: 1, capacity: 4, compiles: 1 });
});

test('a new schema each time keeps at most the capacity; validators handed out still validate', () => {
  const cache = new SchemaValidators(4);
  const early = cache.validatorFor(needs('f0'));
  for (let i = 1; i < 50; i++) cache.validatorFor(needs(`f${i}`));
  assert.deepEqual(cache.stats(), { held: 4, capacity: 4, compiles: 50 });
  assert.equal(early({ f0: 'x' }), true);
  assert.equal(early({ f1: 'x' }), false);
  // Dropped, so compiled again when it comes back; a recently used one is kept.
  cache.validatorFor(needs('f0'));
  cache.validatorFor(needs('f49'));
  assert.equal(cache.stats().compiles, 51);
});

test('a schema that does not compile is refused with a typed error and not kept', () => {
  const cache = new SchemaValidators(4);
  for (let i = 0; i < 3; i++) assert.throws(() => cache.validatorFor({ type: `no-such-type-${i}` }), (e: unknown) => isQualityError(e) && e.code === 'invalid_schema');
  assert.equal(cache.stats().held, 0);
});

test('two schemas may share one $id; dropping one leaves the registry as it was', () => {
  const cache = new SchemaValidators(1);
  const a = cache.validatorFor({ $id: 'https://example.test/shape', ...needs('a') });
  const b = cache.validatorFor({ $id: 'https://example.test/shape', ...needs('b') });
  assert.deepEqual([a({ a: 'x' }), b({ b: 'x' }), b({ a: 'x' })], [true, true, false]);
  assert.equal(cache.validatorFor(needs('c'))({ c: 'x' }), true);
});

test('a schema whose $id names the meta-schema is refused with Ajv\u2019s reason; later schemas still compile', () => {
  const cache = new SchemaValidators(1);
  assert.throws(() => cache.validatorFor({ $id: 'http://json-schema.org/draft-07/schema', type: 'object' }), /already exists/);
  assert.equal(cache.validatorFor(needs('b'))({ b: 'x' }), true);
});

test('a recursive schema ($ref "#", or its own $id) compiles and judges nested values', () => {
  const cache = new SchemaValidators(4);
  const tree = cache.validatorFor({ type: 'object', required: ['name'], properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } } });
  assert.equal(tree({ name: 'root', children: [{ name: 'leaf', children: [] }] }), true);
  assert.equal(tree({ name: 'root', children: [{ children: [] }] }), false);
  const byId = cache.validatorFor({ $id: 'https://example.test/tree', type: 'object', properties: { children: { type: 'array', items: { $ref: 'https://example.test/tree' } } } });
  assert.equal(byId({ children: [{ children: 'no' }] }), false);
});
