// A role's JSON Schema is compiled each time a config is reloaded or a role is changed at
// run time; the compiled schemas the process keeps stay bounded however often that happens,
// a schema met again is not compiled again, the schema that serves is the latest one, and the
// schemas clients send in response_format cost no compilation at all.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { loadConfig } from '../../src/config/index.js';
import { SCHEMA_CACHE_CAPACITY, schemaCacheStats } from '../../src/quality/index.js';
import type { Fleet } from '../../src/sim/index.js';
import { admin, ALICE, rolesConfig, startFromFile, type FileGateway } from './fixtures.js';

/** A schema of its own for each generation: one required string field named after it. */
const schemaOf = (n: number) => ({ type: 'object', required: [`field_${n}`], properties: { [`field_${n}`]: { type: 'string' } } });

describe('role schemas across reloads and runtime changes', () => {
  let h: FileGateway;
  const configWith = (fleet: Fleet, n: number, note = 'none') =>
    rolesConfig(fleet, `  extract: { tier: default, models: [chat-small], checks: [schema], schema: ${JSON.stringify(schemaOf(n))}, default: { content: '{"note":"${note}"}' } }`);
  const yaml = (n: number, note?: string) => configWith(h.fleet, n, note);
  const reload = (text: string) => {
    writeFileSync(h.file, text);
    const report = h.gateway.reload(() => loadConfig(h.file, {}), 'file');
    assert.deepEqual([report.ok, report.issues], [true, []]);
    return report;
  };
  /** Asks `extract` for JSON shaped by `schema` (the simulated provider follows it); answers whether the role's gate let it through. */
  const passesGate = async (schema: object) => {
    const { response } = await h.client.chat.completions
      .create({ model: 'extract', messages: [{ role: 'user', content: 'Extract the field.' }], response_format: { type: 'json_schema', json_schema: { name: 'x', schema: schema as Record<string, unknown> } } })
      .withResponse();
    return response.headers.get('x-warden-default') === null;
  };

  before(async () => {
    h = await startFromFile((fleet) => configWith(fleet, 0));
  });
  after(() => h.close());

  test('a reload that keeps the schema compiles nothing', () => {
    const before = schemaCacheStats().compiles;
    for (let i = 0; i < 20; i++) assert.deepEqual(reload(yaml(0, `reload ${i}`)).applied, ['roles']);
    assert.equal(schemaCacheStats().compiles, before);
  });

  test('reloads with a new schema each time keep at most the capacity compiled; the latest serves', async () => {
    const generations = SCHEMA_CACHE_CAPACITY + 50;
    const before = schemaCacheStats().compiles;
    for (let n = 1; n <= generations; n++) reload(yaml(n));
    const stats = schemaCacheStats();
    assert.ok(stats.compiles - before >= generations, 'each new schema was compiled');
    assert.ok(stats.held <= SCHEMA_CACHE_CAPACITY, `held ${stats.held} compiled schemas, capacity ${SCHEMA_CACHE_CAPACITY}`);
    assert.equal(await passesGate(schemaOf(generations)), true, 'an answer shaped by the latest schema passes');
    assert.equal(await passesGate(schemaOf(1)), false, 'one shaped by a schema long replaced fails the gate');
  });

  test('runtime role changes through the admin API stay within the same bound', async () => {
    for (let n = 1_000; n < 1_000 + SCHEMA_CACHE_CAPACITY + 10; n++) {
      const put = await admin(h.url, ALICE, 'PUT', '/admin/roles/extract', { tier: 'default', models: ['chat-small'], checks: ['schema'], schema: schemaOf(n), default: { content: '{}' }, reason: `schema ${n}` });
      assert.equal(put.status, 200);
    }
    assert.ok(schemaCacheStats().held <= SCHEMA_CACHE_CAPACITY);
    assert.equal(await passesGate(schemaOf(1_000 + SCHEMA_CACHE_CAPACITY + 9)), true);
  });

  test('a schema a client sends in response_format is passed on, never compiled by the gateway', async () => {
    const before = schemaCacheStats();
    for (let n = 5_000; n < 5_010; n++) await passesGate(schemaOf(n));
    assert.deepEqual(schemaCacheStats(), before);
  });
});
