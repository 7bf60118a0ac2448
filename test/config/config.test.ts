import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, parseConfig } from '../../src/config/index.js';
import { CLI } from '../helpers/paths.js';

const BASE = `
providers:
  openrouter: { kind: openrouter, baseUrl: "http://127.0.0.1:9/api/v1", apiKey: "\${OPENROUTER_API_KEY}" }
  openai:     { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }
models:
  chat-main:  { provider: openrouter, model: deepseek/deepseek-chat, routes: discover, timeouts: { firstToken: 10s } }
  chat-small: { provider: openai, model: gpt-4o-mini }
roles:
  chat: { tier: degrade, models: [chat-main, chat-small], checks: [nonempty, prefix] }
`;

function issuesOf(text: string, env: Record<string, string> = { OPENROUTER_API_KEY: 'sk-or-test-123' }) {
  try {
    parseConfig(text, 'test.yaml', env);
  } catch (e) {
    assert.ok(e instanceof ConfigError, `expected a ConfigError, got ${String(e)}`);
    return e.issues;
  }
  assert.fail('expected the config to be refused');
}

test('a valid config gets its defaults and parsed durations', () => {
  const config = parseConfig(BASE, 'test.yaml', { OPENROUTER_API_KEY: 'sk-or-test-123' });
  assert.equal(config.server.port, 8787);
  assert.equal(config.server.host, '127.0.0.1');
  assert.equal(config.models['chat-main']!.timeouts.firstToken, 10_000);
  assert.equal(config.roles.chat!.maxFallbacks, 2);
  assert.equal(config.breaker.cooldown, 30_000);
  assert.equal(config.providers.openrouter!.apiKey!.reveal(), 'sk-or-test-123');
});

test('server receive limits: 60 s for a whole request and 15 s for its headers by default; headers over the request\u2019s limit, or a 0 that would switch the limit off, are refused', () => {
  const config = parseConfig(BASE, 'test.yaml', { OPENROUTER_API_KEY: 'sk-or-test-123' });
  assert.deepEqual([config.server.requestTimeout, config.server.headersTimeout], [60_000, 15_000]);
  const withServer = (server: string) => `server: ${server}\n${BASE}`;
  const over = issuesOf(withServer('{ requestTimeout: 10s, headersTimeout: 20s }'));
  assert.deepEqual(over.map((i) => i.path), ['server.headersTimeout']);
  assert.match(over[0]!.message, /at most server\.requestTimeout \(10000 ms\)/);
  const off = issuesOf(withServer('{ requestTimeout: 0s, headersTimeout: 0s }'));
  assert.deepEqual(off.map((i) => i.path), ['server.requestTimeout', 'server.headersTimeout']);
  assert.match(off[0]!.message, /above 0/);
});

test('a role naming an unknown model is refused with its path, line and a suggestion', () => {
  const issues = issuesOf(BASE.replace('[chat-main, chat-small]', '[chat-main, chat-smal]'));
  assert.equal(issues.length, 1);
  assert.equal(issues[0]!.path, 'roles.chat.models[1]');
  assert.match(issues[0]!.message, /unknown model "chat-smal" \(did you mean "chat-small"\?\)/);
  assert.equal(issues[0]!.line, 9);
});

test('every problem is reported at once, each with its path', () => {
  const text = BASE.replace('tier: degrade', 'tier: sometimes').replace('firstToken: 10s', 'firstToken: soon').replace('roles:', 'rols: {}\nroles:');
  const paths = issuesOf(text).map((i) => i.path).sort();
  assert.deepEqual(paths, ['models.chat-main.timeouts.firstToken', 'roles.chat.tier', 'rols']);
  const messages = issuesOf(text).map((i) => i.message).join('\n');
  assert.match(messages, /expected a duration/);
  assert.match(messages, /unknown key "rols"/);
  assert.match(messages, /expected one of "strict"\|"degrade"\|"default"/);
});

test('canary languages must be ones the language probe has a prompt for', () => {
  const withCanary = (languages: string) => `${BASE}\ncanary: { watch: [chat-main], languages: ${languages} }\n`;
  assert.deepEqual(parseConfig(withCanary('[en, pt]'), 'test.yaml', { OPENROUTER_API_KEY: 'k' }).canary?.languages, ['en', 'pt']);
  for (const bad of ['xx', 'constructor']) {
    const issues = issuesOf(withCanary(`[en, ${bad}]`));
    assert.deepEqual(issues.map((i) => i.path), ['canary.languages[1]']);
    assert.match(issues[0]!.message, new RegExp(`no language probe for "${bad}" \\(known: en, zh`));
  }
});

test('an unset environment variable is named with the path that references it', () => {
  const issues = issuesOf(BASE, {});
  assert.deepEqual(issues.map((i) => [i.path, i.message]), [['providers.openrouter.apiKey', 'environment variable OPENROUTER_API_KEY is not set']]);
  // Set to nothing is refused too, and the message says which of the two it was.
  const empty = issuesOf(BASE, { OPENROUTER_API_KEY: '' });
  assert.deepEqual(empty.map((i) => [i.path, i.message]), [['providers.openrouter.apiKey', 'environment variable OPENROUTER_API_KEY is set but empty']]);
});

test('${VAR:-fallback} uses the fallback when the variable is unset', () => {
  const config = parseConfig(BASE.replace('http://127.0.0.1:9/v1', '${SMALL_URL:-http://127.0.0.1:7/v1}'), 'x', { OPENROUTER_API_KEY: 'k' });
  assert.equal(config.providers.openai!.baseUrl, 'http://127.0.0.1:7/v1');
});

test('secrets never show in serialised config or in errors', () => {
  const secret = 'sk-or-very-secret-value';
  const config = parseConfig(BASE, 'x', { OPENROUTER_API_KEY: secret });
  assert.ok(!JSON.stringify(config).includes(secret));
  assert.ok(!String(config.providers.openrouter!.apiKey).includes(secret));
  const broken = BASE.replace('kind: openrouter,', 'kind: openrouterz,');
  const issues = issuesOf(broken, { OPENROUTER_API_KEY: secret });
  assert.ok(!JSON.stringify(issues).includes(secret));
});

test('a value that lost its ":" is an unknown key that check-config names by its line, never by its text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-config-'));
  const file = join(dir, 'typo.yaml');
  // A literal key (no \${VAR}) written without its colon reads as the key "apiKey sk-…".
  writeFileSync(file, BASE.replace('kind: openai-compatible,', 'kind: openai-compatible, apiKey sk-live-typo-secret,').replace('roles:', 'rols: {}\nroles:'));
  const failed = spawnSync(process.execPath, [CLI, 'check-config', file], { encoding: 'utf8' });
  assert.equal(failed.status, 1);
  assert.ok(!failed.stderr.includes('sk-live-typo-secret'), failed.stderr);
  assert.match(failed.stderr, /providers\.openai\.\(unknown key\) \(line 4\): unknown key that is not a setting name/);
  // A mistyped setting name is still shown, as it helps.
  assert.match(failed.stderr, /rols \(line \d+\): unknown key "rols"/);
});

test('an empty client key is refused by its path, as it would let in any request without a bearer token', () => {
  const text = `server: { clientKeys: ["\${CK1}", "\${CK2:-}"] }\n${BASE}`;
  const issues = issuesOf(text, { OPENROUTER_API_KEY: 'sk-or-test-123', CK1: 'ck-one' });
  assert.deepEqual(issues.map((i) => i.path), ['server.clientKeys[1]']);
  assert.match(issues[0]!.message, /a client key is empty/);
  assert.ok(!JSON.stringify(issues).includes('ck-one'));
});

test('a webhook URL (Slack\u2019s carry their token in the path) never shows in the serialised config nor in errors', () => {
  const token = 'T000/B000/hook-token-xyz';
  const config = parseConfig(`${BASE}notify: { webhooks: ["https://hooks.example.com/services/${token}"] }\n`, 'x', { OPENROUTER_API_KEY: 'k' });
  assert.ok(!JSON.stringify(config).includes(token), JSON.stringify(config.notify));
  assert.equal(config.notify.webhooks[0]!.reveal(), `https://hooks.example.com/services/${token}`);
  const issues = issuesOf(`${BASE}notify: { webhooks: ["ftp://hooks.example.com/${token}"] }\n`);
  assert.deepEqual(issues.map((i) => i.path), ['notify.webhooks[0]']);
  assert.ok(!JSON.stringify(issues).includes(token));
});

test('a Redis URL\u2019s password never shows in the serialised config (what /admin/config/effective answers) nor in errors', () => {
  const password = 'redis-pass-w0rd';
  const config = parseConfig(`${BASE}state: { redis: "redis://:\${REDIS_PASSWORD}@cache:6379/2" }\n`, 'x', { OPENROUTER_API_KEY: 'k', REDIS_PASSWORD: password });
  assert.ok(!JSON.stringify(config).includes(password), JSON.stringify(config.state));
  assert.ok('redis' in config.state && typeof config.state.redis !== 'string' && config.state.redis.reveal() === `redis://:${password}@cache:6379/2`);
  const issues = issuesOf(`${BASE}state: { redis: "redis://:${password}@cache:99999" }\n`);
  assert.deepEqual(issues.map((i) => i.path), ['state.redis']);
  assert.match(issues[0]!.message, /expected a redis:\/\/ URL/);
  assert.ok(!JSON.stringify(issues).includes(password));
});

test('cross references: unknown provider, tier default without a default answer, routes on a direct provider', () => {
  const text = BASE.replace('provider: openai, model: gpt-4o-mini', 'provider: opnai, model: gpt-4o-mini')
    .replace('tier: degrade', 'tier: default')
    .replace('routes: discover', 'routes: discover') + '  other: { models: [chat-main] }\n';
  const issues = issuesOf(text);
  assert.deepEqual(issues.map((i) => i.path).sort(), ['models.chat-small.provider', 'roles.chat.default']);
  assert.match(issues.find((i) => i.path === 'models.chat-small.provider')!.message, /unknown provider "opnai" \(did you mean "openai"\?\)/);
});

test('YAML syntax errors are reported with their line', () => {
  const issues = issuesOf('providers:\n  a: { kind: openrouter\nmodels: {}\n');
  assert.equal(issues[0]!.path, '(yaml)');
  assert.ok(issues[0]!.line! >= 2);
});

test('warden check-config exits 0 on a valid file and 1 with path-named errors otherwise', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-config-'));
  const good = join(dir, 'good.yaml');
  const bad = join(dir, 'bad.yaml');
  writeFileSync(good, BASE);
  writeFileSync(bad, BASE.replace('[chat-main, chat-small]', '[chat-main, chat-smal]'));
  const env = { ...process.env, OPENROUTER_API_KEY: 'sk-or-cli-secret' };
  assert.match(execFileSync(process.execPath, [CLI, 'check-config', good], { env, encoding: 'utf8' }), /ok \(2 providers, 2 models, 1 roles\)/);
  const failed = spawnSync(process.execPath, [CLI, 'check-config', bad], { env, encoding: 'utf8' });
  assert.equal(failed.status, 1);
  assert.match(failed.stderr, /roles\.chat\.models\[1\] \(line 9\): unknown model "chat-smal"/);
  assert.ok(!failed.stderr.includes('sk-or-cli-secret'));
});

test('a role schema that is not a valid JSON Schema is refused at its path, with Ajv\u2019s reason', () => {
  const text = BASE.replace('checks: [nonempty, prefix] }', 'checks: [nonempty, schema], schema: { type: objekt } }');
  const issues = issuesOf(text);
  assert.deepEqual(issues.map((i) => i.path), ['roles.chat.schema']);
  assert.match(issues[0]!.message, /^the JSON Schema does not compile: .*type must be equal to one of the allowed values/);
  assert.equal(issues[0]!.line, 9);
  // A schema that compiles is accepted, with or without the schema check.
  assert.deepEqual(parseConfig(text.replace('objekt', 'object'), 'x', { OPENROUTER_API_KEY: 'k' }).roles.chat!.schema, { type: 'object' });
});

test('a recursive role schema (a tree whose items are the schema itself, $ref "#") is accepted', () => {
  const text = BASE.replace('checks: [nonempty, prefix] }', 'checks: [nonempty, schema], schema: { type: object, properties: { children: { type: array, items: { $ref: "#" } } } } }');
  assert.equal(parseConfig(text, 'x', { OPENROUTER_API_KEY: 'k' }).roles.chat!.schema?.type, 'object');
});

test('names are letters, digits, ".", "_" or "-", never one every JavaScript object carries; no name is dropped unsaid', () => {
  const roleNamed = (n: string) => issuesOf(`${BASE}  ${n}: { models: [chat-small] }\n`);
  for (const reserved of ['constructor', 'prototype', 'hasOwnProperty', 'toString']) {
    const issues = roleNamed(reserved);
    assert.deepEqual(issues.map((i) => i.path), [`roles.${reserved}`], reserved);
    assert.match(issues[0]!.message, new RegExp(`^name "${reserved}": every JavaScript object carries it`), reserved);
  }
  // zod's records skip a __proto__ key without a word: the role would vanish from a config that checks "ok".
  assert.deepEqual(roleNamed('__proto__').map((i) => [i.path, i.message]), [['roles.__proto__', 'name "__proto__": expected letters, digits, ".", "_" or "-", starting with a letter or digit']]);
  assert.deepEqual(roleNamed('"bad name"').map((i) => i.path), ['roles.bad name']);
  // The same rule for every name: a model, and a model a role names.
  const model = issuesOf(BASE.replace('chat-small: { provider: openai', 'constructor: { provider: openai').replace('[chat-main, chat-small]', '[chat-main, constructor]'));
  assert.deepEqual([...new Set(model.map((i) => i.path))].sort(), ['models.constructor', 'roles.chat.models[1]']);
});

test('warden check-config refuses a role schema that does not compile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-config-'));
  const bad = join(dir, 'bad-schema.yaml');
  writeFileSync(bad, BASE.replace('checks: [nonempty, prefix] }', 'checks: [nonempty, schema], schema: { type: objekt } }'));
  const failed = spawnSync(process.execPath, [CLI, 'check-config', bad], { env: { ...process.env, OPENROUTER_API_KEY: 'k' }, encoding: 'utf8' });
  assert.equal(failed.status, 1, failed.stdout);
  assert.match(failed.stderr, /roles\.chat\.schema \(line 9\): the JSON Schema does not compile: /);
});

test('an OpenRouter route listed in the config may give its slug; a slug that is a display name is refused by its path', () => {
  const listed = (routes: string) => BASE.replace('routes: discover', `routes: ${routes}`);
  const config = parseConfig(listed('[{ name: Google AI Studio, slug: google-ai-studio }, DeepInfra]'), 'test.yaml', { OPENROUTER_API_KEY: 'k' });
  assert.deepEqual(config.models['chat-main']!.routes, [{ name: 'Google AI Studio', slug: 'google-ai-studio' }, 'DeepInfra']);
  const issues = issuesOf(listed('[{ name: Google AI Studio, slug: Google AI Studio }]'));
  assert.equal(issues.length, 1, JSON.stringify(issues));
  assert.equal(issues[0]!.path, 'models.chat-main.routes[0].slug');
  assert.match(issues[0]!.message, /expected an OpenRouter provider slug such as "google-ai-studio"/);
});
