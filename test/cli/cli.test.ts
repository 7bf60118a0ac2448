// The `warden` command as a user meets it: the demo answers the official client with no
// key, and `start` refuses a broken config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { CLI } from '../helpers/paths.js';

test('warden demo serves the official client, streaming and not, without a key', async () => {
  const demo = spawn(process.execPath, [CLI, 'demo', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let output = '';
    demo.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      demo.stdout.on('data', (text: string) => {
        output += text;
        const match = /gateway:\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
        if (match && output.includes('Ctrl-C')) resolve(match[1]!);
      });
      demo.once('exit', (code) => reject(new Error(`demo exited with ${code}: ${output}`)));
    });
    assert.match(output, /curl -s http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
    assert.match(output, /chat-main@openrouter\/Stray\s+\(blocked: built-in\)/);
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'not-needed', maxRetries: 0 });
    const plain = await client.chat.completions.create({ model: 'chat-small', messages: [{ role: 'user', content: 'Hello!' }] });
    assert.ok(plain.choices[0]!.message.content);
    const stream = await client.chat.completions.create({ model: 'chat-small', stream: true, messages: [{ role: 'user', content: 'Hello!' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.equal(text, plain.choices[0]!.message.content);
  } finally {
    demo.kill('SIGINT');
    if (demo.exitCode === null) await once(demo, 'exit');
  }
});

test('warden start refuses to start on a config error and names its path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-start-'));
  const file = join(dir, 'bad.yaml');
  writeFileSync(file, 'providers:\n  p: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }\nmodels:\n  m: { provider: q, model: x }\n');
  const result = spawnSync(process.execPath, [CLI, 'start', '--config', file], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /refusing to start/);
  assert.match(result.stderr, /models\.m\.provider \(line 4\): unknown provider "q"/);
});

test('--help and -h in place of a command print the usage and succeed', () => {
  for (const flag of ['--help', '-h']) {
    const result = spawnSync(process.execPath, [CLI, flag], { encoding: 'utf8' });
    assert.equal(result.status, 0, flag);
    assert.match(result.stdout, /usage: warden <command>/);
    assert.equal(result.stderr, '');
  }
});

test('unknown commands and flags are usage errors', () => {
  const result = spawnSync(process.execPath, [CLI, 'launch'], { encoding: 'utf8' });
  assert.equal(result.status, 64);
  assert.match(result.stderr, /unknown command "launch"/);
  const flag = spawnSync(process.execPath, [CLI, 'start', '--confg', 'x'], { encoding: 'utf8' });
  assert.equal(flag.status, 64);
});
