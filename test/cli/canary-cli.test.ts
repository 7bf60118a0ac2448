// `warden canary --once`: one round from the command line, evidence printed, exit code by verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseScenario, startFleet } from '../../src/sim/index.js';
import { CLI } from '../helpers/paths.js';

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

test('warden canary --once prints the evidence and exits 2 on a quality failure, 3 on transport only, 0 when clean', async () => {
  const model = 'deepseek/deepseek-chat';
  const fleet = await startFleet({ scenario: parseScenario({ seed: 4, providers: { Stray: { models: [model], faults: { prefix: 1 } }, Good: { models: [model] }, Down: { models: [model], faults: { error503: 1 } } } }), port: 0 });
  const file = join(mkdtempSync(join(tmpdir(), 'warden-canary-')), 'gw.yaml');
  writeFileSync(file, `providers:\n  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }\nmodels:\n  chat-main: { provider: openrouter, model: ${model} }\n`);
  try {
    const all = await run(['canary', '--config', file, '--once']);
    assert.equal(all.code, 2, all.stderr);
    assert.match(all.stdout, /FAIL\s+chat-main@openrouter\/Stray/);
    assert.match(all.stdout, /prefix\s+fail\s+template_token\s+"<\|im_start\|>/);
    assert.match(all.stdout, /TRANSPORT\s+chat-main@openrouter\/Down/);

    const down = await run(['canary', '--config', file, '--once', '--route', 'chat-main@openrouter/Down']);
    assert.equal(down.code, 3);

    const good = await run(['canary', '--config', file, '--once', '--route', 'chat-main@openrouter/Good', '--json']);
    assert.equal(good.code, 0);
    const report = JSON.parse(good.stdout) as { routes: Array<{ route: string; round: { verdict: string; probes: unknown[] } }> };
    assert.deepEqual(report.routes.map((r) => [r.route, r.round.verdict, r.round.probes.length]), [['chat-main@openrouter/Good', 'pass', 6]]);

    // A route the round cannot probe is a usage error, whatever is wrong with it.
    const usage = async (route: string, reason: RegExp) => {
      const wrong = await run(['canary', '--config', file, '--once', '--route', route]);
      assert.equal(wrong.code, 64, `${route}: ${wrong.stderr}`);
      assert.match(wrong.stderr, reason);
      assert.match(wrong.stderr, /usage: warden/);
      assert.equal(wrong.stdout, '');
    };
    await usage('chat-main@openrouter/Nope', /--route "chat-main@openrouter\/Nope" is not a route of chat-main \(its routes now: chat-main@openrouter\/(Stray|Good|Down), /);
    await usage('nope', /--route "nope" is not a route id: expected <model>@<provider> or <model>@<provider>\/<endpoint>/);
    await usage('gpt@openai', /--route "gpt@openai" names no configured model \(models: chat-main\)/);
    await usage('', /--route is empty/);
  } finally {
    await fleet.close();
  }
});
