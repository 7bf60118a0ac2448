// The overlay's pure parts: the effective config (validated by the config's own schema, errors
// naming the field), JSON merge patch, the field diff, and reading a stored overlay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/config/index.js';
import { diff, effectiveConfig, entryOf, isRoleError, mergePatch, type RoleError } from '../../src/roles/index.js';
import { readOverlay } from '../../src/roles/overlay.js';

const BASE = parseConfig(`
server: { adminToken: "t0k3n" }
providers:
  p: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-secret" }
models:
  chat-main:  { provider: p, model: m1 }
  chat-small: { provider: p, model: m2 }
roles:
  chat: { models: [chat-main, chat-small], checks: [nonempty], escalation: { model: chat-main } }
`, 'base', {});

const refused = (fn: () => unknown): RoleError => {
  try {
    fn();
  } catch (e) {
    if (isRoleError(e)) return e;
    throw e;
  }
  assert.fail('expected a RoleError');
};

test('the effective config is the base with the overlay\u2019s roles, validated again (secrets and durations survive)', () => {
  const effective = effectiveConfig(BASE, { chat: { models: ['chat-small'], retry: { maxWait: '2s' } }, summary: { models: ['chat-main'] } });
  assert.deepEqual(effective.roles.chat!.models, ['chat-small']);
  assert.equal(effective.roles.chat!.retry.maxWait, 2_000);
  assert.equal(effective.roles.chat!.escalation, undefined, 'an entry replaces the role whole');
  assert.deepEqual(effective.roles.summary!.models, ['chat-main']);
  assert.equal(effective.providers.p!.apiKey!.reveal(), 'sk-secret');
  assert.ok(effective.server.adminToken!.equals('t0k3n'));
  assert.deepEqual(BASE.roles.chat!.models, ['chat-main', 'chat-small'], 'the base is untouched');
});

test('an invalid role is refused with the field named, as the YAML would be', () => {
  const e = refused(() => effectiveConfig(BASE, { chat: { models: ['chat-main', 'chat-smal'] } }));
  assert.equal(e.code, 'invalid_role');
  assert.equal(e.param, 'roles.chat.models[1]');
  assert.match(e.message, /roles\.chat\.models\[1\]: unknown model "chat-smal" \(did you mean "chat-small"\?\)/);
  assert.equal(refused(() => effectiveConfig(BASE, { chat: { models: ['chat-main'], tier: 'sometimes' } })).param, 'roles.chat.tier');
  assert.equal(refused(() => effectiveConfig(BASE, { chat: { models: ['chat-main'], colour: 'red' } })).param, 'roles.chat.colour');
  assert.equal(refused(() => effectiveConfig(BASE, { 'chat-main': { models: ['chat-small'] } })).param, 'models.chat-main');
});

test('a rollout is checked like the rest: known candidate, not the primary, one form only, increasing steps', () => {
  const at = (rollout: unknown) => refused(() => effectiveConfig(BASE, { chat: { models: ['chat-main'], rollout } }));
  assert.equal(at({ candidate: 'chat-nwe', weight: 10 }).param, 'roles.chat.rollout.candidate');
  assert.match(at({ candidate: 'chat-main', weight: 10 }).message, /already the role's primary/);
  assert.equal(at({ candidate: 'chat-small' }).param, 'roles.chat.rollout.weight');
  assert.equal(at({ candidate: 'chat-small', weight: 120 }).param, 'roles.chat.rollout.weight');
  assert.equal(at({ candidate: 'chat-small', weight: 10, weights: { 'chat-main': 1 } }).param, 'roles.chat.rollout.weights');
  assert.equal(at({ weights: { 'chat-main': 1, nope: 1 } }).param, 'roles.chat.rollout.weights.nope');
  assert.equal(at({ weights: { 'chat-main': 1 }, auto: {} }).param, 'roles.chat.rollout.auto');
  assert.equal(at({ candidate: 'chat-small', weight: 10, auto: { steps: [50, 25] } }).param, 'roles.chat.rollout.auto.steps[1]');
  const ok = effectiveConfig(BASE, { chat: { models: ['chat-main'], rollout: { candidate: 'chat-small', weight: 10, auto: {} } } });
  assert.deepEqual(ok.roles.chat!.rollout!.auto, { after: 200, bound: 0.05, steps: [10, 25, 50, 100] });
});

test('admin token names are unique, and "admin" is the single token\u2019s', () => {
  assert.throws(() => parseConfig(`
server: { adminToken: a, adminTokens: [{ name: admin, token: b }] }
providers: {}
models: {}
`, 'x', {}), /server\.adminTokens\[0\]\.name .*already taken by server\.adminToken/);
});

test('merge patch: objects merge, null removes, arrays replace', () => {
  const role = entryOf(BASE.roles.chat!);
  const patched = mergePatch(role, { models: ['chat-small'], escalation: { threshold: 0.9 }, checks: null }) as Record<string, any>;
  assert.deepEqual(patched.models, ['chat-small']);
  assert.equal(patched.escalation.threshold, 0.9);
  assert.equal(patched.escalation.model, 'chat-main');
  assert.equal('checks' in patched, false);
  assert.deepEqual(role.models, ['chat-main', 'chat-small'], 'the target is untouched');
});

test('diff names each changed field with before and after', () => {
  const before = entryOf(BASE.roles.chat!);
  const after = { ...before, models: ['chat-small'], tier: 'strict', escalation: undefined };
  assert.deepEqual(diff(before, after), [
    { path: 'tier', before: 'degrade', after: 'strict' },
    { path: 'models', before: ['chat-main', 'chat-small'], after: ['chat-small'] },
    { path: 'escalation', before: before.escalation },
  ]);
  assert.deepEqual(diff(undefined, { models: ['a'] }), [{ path: '(role)', after: { models: ['a'] } }]);
  assert.deepEqual(diff(before, structuredClone(before)), []);
});

test('a stored overlay that is not one reads as empty; non-object entries are skipped', () => {
  assert.deepEqual(readOverlay('nonsense').roles, {});
  assert.deepEqual(readOverlay({ roles: { chat: { models: ['x'] }, bad: 3 }, updatedBy: 'alice', updatedAt: 5 }), { roles: { chat: { models: ['x'] } }, changes: {}, updatedAt: 5, updatedBy: 'alice' });
  const note = { at: 5, by: 'alice', reason: 'cheaper' };
  assert.deepEqual(readOverlay({ roles: { chat: { models: ['x'] } }, changes: { chat: note, gone: note, bad: { at: 'x' } } }).changes, { chat: note }, 'a change note only for a role in the overlay');
});
