// Role changes the config would refuse are refused at run time too, whatever the role is
// called: a JSON Schema that does not compile, and names every JavaScript object carries
// (`constructor`, `__proto__`), which must not read through to Object.prototype anywhere a
// client names a role, a model or a route.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { parseConfig } from '../../src/config/index.js';
import { createGateway } from '../../src/gateway.js';
import { parseScenario, startFleet } from '../../src/sim/index.js';
import { MemoryStore } from '../../src/state/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { admin, ALICE, HELLO, rolesConfig, SCENARIO } from './fixtures.js';

const RESERVED = ['constructor', '__proto__', 'prototype', 'hasOwnProperty', 'toString'];
const BAD_SCHEMA = { type: 'objekt' };

describe('role changes the config would refuse', () => {
  let h: Harness;
  const as = (method: string, path: string, body?: unknown) => admin(h.url, ALICE, method, path, body);
  const json = () => h.client.chat.completions.create({ model: 'chat', messages: HELLO, response_format: { type: 'json_object' } }).withResponse();
  before(async () => {
    h = await startHarness({ scenario: SCENARIO, configYaml: (fleet) => rolesConfig(fleet) });
  });
  after(() => h.close());

  test('a JSON Schema that does not compile is refused by PUT and PATCH, naming the field and Ajv\u2019s reason; nothing changes', async () => {
    const before = await as('GET', '/admin/roles');
    const events = h.gateway.store.audit(1_000).length;
    const put = await as('PUT', '/admin/roles/chat', { models: ['chat-small'], checks: ['schema'], schema: BAD_SCHEMA, reason: 'structured chat' });
    const patch = await as('PATCH', '/admin/roles/chat', { checks: ['nonempty', 'schema'], schema: BAD_SCHEMA, reason: 'structured chat' });
    for (const bad of [put, patch]) {
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.type, 'invalid_request_error');
      assert.equal(bad.body.error.code, 'invalid_role');
      assert.equal(bad.body.error.param, 'roles.chat.schema');
      assert.match(bad.body.error.message, /roles\.chat\.schema: the JSON Schema does not compile: .*type must be equal to one of the allowed values/);
    }
    assert.deepEqual(await as('GET', '/admin/roles'), before);
    assert.equal(h.gateway.store.audit(1_000).length, events, 'nothing audited');
    const { response } = await json();
    assert.equal(response.status, 200);
  });

  test('a role named like an object internal is refused by PUT and PATCH with the name named; nothing is written or audited', async () => {
    const before = await as('GET', '/admin/roles');
    const events = h.gateway.store.audit(1_000).length;
    for (const name of RESERVED) {
      for (const method of ['PUT', 'PATCH']) {
        const bad = await as(method, `/admin/roles/${name}`, { models: ['chat-small'], reason: 'x' });
        assert.equal(bad.status, 400, `${method} ${name}: ${JSON.stringify(bad.body)}`);
        assert.equal(bad.body.error.code, 'invalid_role');
        assert.equal(bad.body.error.param, 'name');
        assert.ok(bad.body.error.message.startsWith(`role name "${name}": `), bad.body.error.message);
      }
    }
    const badPattern = await as('PUT', `/admin/roles/${encodeURIComponent('bad name')}`, { models: ['chat-small'], reason: 'x' });
    assert.equal(badPattern.status, 400);
    assert.equal(badPattern.body.error.param, 'name');
    assert.match(badPattern.body.error.message, /role name "bad name": expected letters, digits/);
    assert.deepEqual(await as('GET', '/admin/roles'), before);
    assert.equal(h.gateway.store.audit(1_000).length, events, 'nothing audited');
  });

  test('looking up, rolling out or dropping a role named like an object internal finds no role', async () => {
    for (const name of RESERVED) {
      for (const [method, path, body] of [
        ['GET', `/admin/roles/${name}`, undefined],
        ['GET', `/admin/roles/${name}/rollout`, undefined],
        ['POST', `/admin/roles/${name}/rollout`, { candidate: 'chat-new', weight: 10, reason: 'x' }],
        ['POST', `/admin/roles/${name}/rollout/advance`, { weight: 50, reason: 'x' }],
        ['POST', `/admin/roles/${name}/rollout/rollback`, { reason: 'x' }],
      ] as const) {
        const answer = await as(method, path, body);
        assert.equal(answer.status, 404, `${method} ${path}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error.code, 'unknown_role');
      }
      const drop = await as('DELETE', `/admin/roles/overlay?role=${name}`, { reason: 'x' });
      assert.equal(drop.status, 200, `drop ${name}: ${JSON.stringify(drop.body)}`);
      assert.deepEqual(drop.body.dropped, []);
    }
  });

  test('a chat request naming an object internal as its model is a 404 model_not_found', async () => {
    for (const model of [...RESERVED, 'constructor@alpha', '__proto__@alpha']) {
      const res = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: HELLO }) });
      const body = (await res.json()) as { error: { code: string } };
      assert.equal(res.status, 404, `${model}: ${JSON.stringify(body)}`);
      assert.equal(body.error.code, 'model_not_found');
    }
  });

  test('route and blocklist admin calls naming an object internal answer 4xx, never a 500', async () => {
    for (const name of ['constructor', '__proto__', 'constructor@alpha']) {
      for (const action of ['shed', 'restore', 'release']) {
        const answer = await as('POST', `/admin/routes/${encodeURIComponent(name)}/${action}`, { reason: 'x' });
        assert.ok(answer.status >= 400 && answer.status < 500, `${action} ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      const block = await as('POST', '/admin/blocklist', { route: name, reason: 'x' });
      assert.ok(block.status >= 400 && block.status < 500, `block ${name}: ${block.status} ${JSON.stringify(block.body)}`);
      const unblock = await as('DELETE', `/admin/blocklist/${encodeURIComponent(name)}`);
      assert.ok(unblock.status >= 400 && unblock.status < 500, `unblock ${name}: ${unblock.status} ${JSON.stringify(unblock.body)}`);
    }
  });
});

test('a role schema that still fails to compile at serving time is no 500: the answer is checked as JSON and the problem is logged', async () => {
  const fleet = await startFleet({ scenario: parseScenario(SCENARIO), port: 0 });
  const config = parseConfig(rolesConfig(fleet).replace('checks: [nonempty, prefix] }', 'checks: [nonempty, schema], schema: { type: object } }'), 'test', {});
  // What validation would refuse, put in behind its back.
  config.roles.chat = { ...config.roles.chat!, schema: BAD_SCHEMA };
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk)) as Record<string, unknown>); done(); } });
  const gateway = createGateway(config, { log: createLogger({ level: 'info', destination: sink }), processMetrics: false, store: new MemoryStore(), canarySchedule: false });
  const url = await gateway.listen(0, '127.0.0.1');
  try {
    const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'chat', messages: HELLO, response_format: { type: 'json_object' } }) });
    const body = (await res.json()) as { choices?: Array<{ message: { content: string } }> };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(res.headers.get('x-warden-attempts'), '1', 'no route was blamed for the config');
    assert.equal(typeof JSON.parse(body.choices![0]!.message.content), 'object');
    const logged = lines.find((l) => l.level === 50 && l.role === 'chat');
    assert.ok(logged, 'the problem is logged as an error');
    assert.match(String(logged.msg), /schema/);
    assert.match(String(logged.problem), /the JSON Schema does not compile/);
  } finally {
    await gateway.close();
    await fleet.close();
  }
});
