// `warden inspect`, as a user runs it: the compiled CLI, a reply on stdin, exit codes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI } from '../helpers/paths.js';

const inspect = (args: string[], input: string) => spawnSync(process.execPath, [CLI, 'inspect', ...args], { input, encoding: 'utf8' });

describe('warden inspect', () => {
  it('exits 0 when every check passes and prints each verdict', () => {
    const run = inspect(['--checks', 'nonempty,encoding,prefix,language', '--language', 'pt'], 'Todo ser humano tem direito à vida, à liberdade e à segurança pessoal.\n');
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /pass\s+language\s+ok/);
  });

  it('exits 2 on a failure, with the reason and evidence, as JSON with --json', () => {
    const run = inspect(['--checks', 'language,nonempty', '--language', 'pt', '--json'], 'Todo individuo tiene derecho a la vida, a la libertad y a la seguridad de su persona. Nadie estará sometido a esclavitud.');
    assert.equal(run.status, 2, run.stderr);
    const out = JSON.parse(run.stdout) as { verdict: string; checks: Array<{ check: string; reason: string; evidence?: { languages?: Array<{ language: string }> } }> };
    assert.equal(out.verdict, 'fail');
    assert.equal(out.checks[0]?.reason, 'wrong_language');
    assert.equal(out.checks[0]?.evidence?.languages?.[0]?.language, 'es');
  });

  it('runs minlen against --min-length, and refuses a minimum that is not a whole number', () => {
    assert.equal(inspect(['--checks', 'minlen', '--min-length', '5'], 'Long enough, surely.').status, 0);
    const short = inspect(['--checks', 'minlen', '--min-length', '50', '--json'], 'Too short.');
    assert.equal(short.status, 2);
    assert.match(short.stdout, /too_short/);
    assert.equal(inspect(['--checks', 'minlen'], 'anything').status, 3, 'without a minimum it cannot judge');
    const bad = inspect(['--checks', 'minlen', '--min-length', 'ten'], 'x');
    assert.equal(bad.status, 64);
    assert.match(bad.stderr, /--min-length must be a whole number/);
  });

  it('refuses an input far bigger than one reply with a message, instead of reading it all', () => {
    const run = inspect(['--checks', 'nonempty'], 'a'.repeat(16 * 1024 * 1024 + 1));
    assert.equal(run.status, 1);
    assert.match(run.stderr, /stdin holds more than 16 MiB; inspect judges one reply/);
    assert.equal(inspect(['--checks', 'nonempty'], 'a'.repeat(1024 * 1024)).status, 0, 'a long reply is still judged');
  });

  it('exits 3 when the worst is inconclusive', () => {
    assert.equal(inspect(['--checks', 'language', '--language', 'en'], 'OK').status, 3);
  });

  it('reads a JSON Schema file and accepted answers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-inspect-'));
    const file = join(dir, 'schema.json');
    writeFileSync(file, JSON.stringify({ type: 'object', required: ['city'], properties: { city: { type: 'string' } } }));
    assert.equal(inspect(['--checks', 'schema', '--schema', file], '{"city":"Paris"}').status, 0);
    const wrapped = inspect(['--checks', 'schema', '--schema', file, '--json'], 'Sure! {"city":"Paris"}');
    assert.equal(wrapped.status, 2);
    assert.match(wrapped.stdout, /json_wrapped_in_prose/);
    assert.equal(inspect(['--checks', 'fact', '--expect', 'Paris', '--expect', '巴黎'], '巴黎。').status, 0);
  });

  it('rejects bad flags with a clear message and exit 64', () => {
    const unknown = inspect(['--checks', 'nonempty,vibes'], 'x');
    assert.equal(unknown.status, 64);
    assert.match(unknown.stderr, /unknown check "vibes"/);
    assert.match(inspect([], 'x').stderr, /inspect needs --checks/);
    assert.match(inspect(['--checks', 'language', '--language', 'xx'], 'x').stderr, /--language must be one of/);
    assert.match(inspect(['--checks', 'schema', '--schema', '/nonexistent/schema.json'], 'x').stderr, /--schema/);
  });
});
