// A stream cut before its end — the connection reset, or the response ended cleanly without
// its [DONE] — while nothing of it has reached the client (held back by the role's window) is
// a failed attempt like any other: the route is blamed and the next one answers. Once bytes
// went out, an SSE error event is the only honest ending. The official openai client →
// gateway (ledger in a SQLite file) → simulated fleet.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { Fleet } from '../../src/sim/index.js';
import { openStore } from '../../src/state/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const PROVIDERS = ['ha', 'hb', 'pa', 'pb'];
const SCENARIO = { seed: 7, providers: Object.fromEntries(PROVIDERS.map((name) => [name, { models: [`${name}-model`] }])) };

// The window holds more than the cut streams carry (three pieces), and its ms is long: no test waits on it.
function config(fleet: Fleet): string {
  const providers = PROVIDERS.map((n) => `  ${n}: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl(n)}" }`).join('\n');
  const models = PROVIDERS.map((n) => `  ${n}: { provider: ${n}, model: ${n}-model }`).join('\n');
  return `
breaker: { failures: 1000, minCalls: 1000 }
providers:
${providers}
models:
${models}
roles:
  held:  { tier: degrade, models: [ha, hb], checks: [nonempty], holdBack: { chars: 2000, ms: 30s } }
  plain: { tier: degrade, models: [pa, pb] }
`;
}

const HELLO = [{ role: 'user' as const, content: 'Hello there, how are you?' }];

describe('a stream cut before its end', () => {
  let h: Harness;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-stream-cut-'));
    const log = createLogger({ level: 'silent' });
    h = await startHarness({ scenario: SCENARIO, configYaml: config, log, store: openStore({ sqlite: join(dir, 'warden.db') }, { log }) });
  });
  after(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    for (const name of PROVIDERS) h.fleet.setFaults(name, {});
    h.fleet.reset();
  });

  /** Streams a request; the answer's headers, the text the client assembled and the error it raised. */
  async function stream(model: string) {
    const { data, response } = await h.client.chat.completions.create({ model, messages: HELLO, stream: true }).withResponse();
    let text = '';
    let finish: string | null = null;
    let error: unknown = null;
    try {
      for await (const chunk of data) {
        text += chunk.choices[0]?.delta?.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    } catch (e) {
      error = e;
    }
    await h.fleet.waitFor((s) => s.openStreams === 0);
    return { route: response.headers.get('x-warden-route'), fallback: response.headers.get('x-warden-fallback'), text, finish, error };
  }

  const failures = (route: string) => h.gateway.breakers.snapshot(route)?.consecutiveFailures ?? 0;

  for (const fault of ['streamCut', 'reset']) {
    test(`held back (${fault}): the client gets the fallback's whole answer, and the cut route is blamed`, async () => {
      const before = failures('ha@ha');
      h.fleet.setFaults('ha', { [fault]: 1 });
      const whole = await h.client.chat.completions.create({ model: 'hb', messages: HELLO });
      const streamed = await stream('held');
      assert.equal(streamed.error, null, 'the client saw no error');
      assert.deepEqual([streamed.route, streamed.fallback, streamed.finish], ['hb@hb', 'transport:upstream_connection_lost at ha@ha', 'stop']);
      assert.equal(streamed.text, whole.choices[0]!.message.content, 'the whole answer, and only the fallback\u2019s');
      assert.equal(failures('ha@ha'), before + 1, 'a breaker failure of the cut route');
      const entry = h.gateway.store.ledger(1)[0]!;
      assert.deepEqual([entry.role, entry.primaryRoute, entry.reason, entry.finalRoute, entry.outcome], ['held', 'ha@ha', 'transport:upstream_connection_lost', 'hb@hb', 'fallback']);
    });
  }

  test('after the first token went out (no window), a cut stream ends with an SSE error event and counts against the route', async () => {
    const before = failures('pa@pa');
    h.fleet.setFaults('pa', { streamCut: 1 });
    const streamed = await stream('plain');
    assert.equal(streamed.route, 'pa@pa');
    assert.ok(streamed.text.length > 0, 'the content before the cut reached the client');
    assert.ok(streamed.error instanceof OpenAI.APIError, `an APIError, not ${String(streamed.error)}`);
    assert.equal(streamed.error.code, 'upstream_connection_lost');
    assert.match(streamed.error.message, /pa@pa: upstream closed the stream before it finished/);
    assert.equal(failures('pa@pa'), before + 1);
    const entry = h.gateway.store.ledger(1)[0]!;
    assert.deepEqual([entry.role, entry.finalRoute, entry.outcome], ['plain', 'pa@pa', 'failed_after_commit']);
  });
});
