// Shutting down (SIGTERM, gateway.close()): listening stops at once, requests in flight get the
// grace period, what is still open when it ends gets the shutdown error (an SSE error event on
// a stream, a 503 otherwise), and background work ends before the store closes. The grace
// period runs on the injected clock: a held sleep never ends by itself, a plain ManualClock
// sleep ends at once; the fleet's held streams end when the test releases them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import OpenAI from 'openai';
import { parseScenario, startFleet, type Fleet } from '../../src/sim/index.js';
import { SqliteStore, type Store } from '../../src/state/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { startProcess } from '../helpers/cluster.js';
import { until } from '../helpers/until.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const TOKEN = 'shutdown-admin';
const HELLO = [{ role: 'user' as const, content: 'Hello there' }];
const SCENARIO = {
  seed: 11,
  providers: {
    // Each stream sends its first chunk, then waits for fleet.releaseStreams('Held').
    Held: { models: ['held/model'], replyTokens: 30, holdStreams: true },
    // Headers at once, the answer after a minute: a request that is still in flight.
    Sluggish: { models: ['sluggish/model'], firstTokenMs: 60_000 },
  },
};
const config = (fleet: Fleet, extra = '') => `
server: { adminToken: "${TOKEN}" }
providers:
  heldp:     { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Held')}" }
  sluggishp: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Sluggish')}" }
models:
  held:     { provider: heldp, model: held/model }
  sluggish: { provider: sluggishp, model: sluggish/model }
${extra}`;

interface LogLine {
  level: number;
  msg: string;
  drained?: number;
  cut?: number;
  [k: string]: unknown;
}

async function start(clock: ManualClock, options: { extra?: string; store?: Store } = {}): Promise<Harness & { logs: LogLine[] }> {
  const logs: LogLine[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(JSON.parse(String(chunk)) as LogLine);
      done();
    },
  });
  const h = await startHarness({ scenario: SCENARIO, configYaml: (fleet) => config(fleet, options.extra), clock, store: options.store, log: createLogger({ level: 'info', destination }) });
  return Object.assign(h, { logs });
}

/** Opens a stream on the held model and reads it up to its first content. */
async function openHeldStream(client: OpenAI) {
  const stream = await client.chat.completions.create({ model: 'held', messages: HELLO, stream: true });
  const chunks = stream[Symbol.asyncIterator]();
  let text = '';
  while (!text) {
    const { value, done } = await chunks.next();
    assert.ok(!done, 'the stream ended before its first content');
    text += value.choices[0]?.delta?.content ?? '';
  }
  return { chunks, text };
}

/** Reads the rest of a stream: its text and finish reason, or the error it ended with. */
async function readRest(chunks: AsyncIterator<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  let text = '';
  let finish: string | null = null;
  try {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      text += next.value.choices[0]?.delta?.content ?? '';
      finish = next.value.choices[0]?.finish_reason ?? finish;
    }
  } catch (error) {
    return { text, finish, error };
  }
  return { text, finish, error: null };
}

/** Whether a fresh TCP connection to `url` is refused. */
function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

const summary = (logs: LogLine[]) => logs.find((l) => l.drained !== undefined);

test('a stream in flight at shutdown ends normally when it finishes within the grace period; new connections are refused meanwhile', async () => {
  const clock = new ManualClock();
  // The grace period never runs out on its own: only the stream's end can end the drain.
  clock.holdSleeps = true;
  const h = await start(clock);
  try {
    const { chunks, text } = await openHeldStream(h.client);
    const closing = h.gateway.close();
    assert.equal(await refused(h.url), true, 'a new connection is refused once the shutdown started');
    assert.equal(h.fleet.releaseStreams('Held'), 1);
    const rest = await readRest(chunks);
    assert.equal(rest.error, null);
    assert.equal(rest.finish, 'stop');
    assert.ok((text + rest.text).length > text.length, 'the rest of the answer came after the shutdown started');
    await closing;
    assert.deepEqual({ drained: summary(h.logs)?.drained, cut: summary(h.logs)?.cut }, { drained: 1, cut: 0 });
  } finally {
    await h.close();
  }
});

test('requests still open when the grace period ends: a stream gets the shutdown error event, a plain request a 503, then the connections close', async () => {
  // A ManualClock's sleep ends at once: a grace period of zero.
  const h = await start(new ManualClock());
  try {
    const { chunks } = await openHeldStream(h.client);
    const plain = h.client.chat.completions.create({ model: 'sluggish', messages: HELLO });
    const refusedPlain = assert.rejects(plain, (e: unknown) => {
      assert.ok(e instanceof OpenAI.APIError);
      assert.equal(e.status, 503);
      assert.equal(e.code, 'gateway_shutting_down');
      return true;
    });
    await h.fleet.waitFor((s) => s.providers.Sluggish!.requests === 1 && s.openRequests === 2);
    const closing = h.gateway.close();
    const rest = await readRest(chunks);
    assert.ok(rest.error instanceof OpenAI.APIError, `the stream ended with ${String(rest.error)}`);
    assert.equal(rest.error.code, 'gateway_shutting_down');
    assert.match(rest.error.message, /shutting down/);
    assert.equal(rest.finish, null, 'the stream was cut before its end');
    await refusedPlain;
    // close() resolves once the server has closed every connection.
    await closing;
    assert.deepEqual({ drained: summary(h.logs)?.drained, cut: summary(h.logs)?.cut }, { drained: 0, cut: 2 });
    // The upstream exchanges were ended too, not left running.
    await h.fleet.waitFor((s) => s.openStreams === 0 && s.openRequests === 0);
  } finally {
    await h.close();
  }
});

test('a canary round under way at shutdown records what it has before the store closes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-shutdown-'));
  const file = join(dir, 'warden.db');
  const quiet = { warn: () => {}, error: () => {} };
  const h = await start(new ManualClock(), { extra: 'canary: { watch: [sluggish], languages: [en] }', store: new SqliteStore({ file, log: quiet }) });
  try {
    const round = fetch(`${h.url}/admin/canary/run`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    // The round's first probe is in flight at the provider that answers after a minute.
    await h.fleet.waitFor((s) => s.providers.Sluggish!.requests === 1 && s.openRequests === 1);
    await h.gateway.close();
    const answer = await round;
    assert.equal(answer.status, 503);
    assert.equal(((await answer.json()) as { error: { code: string } }).error.code, 'gateway_shutting_down');
    const errors = h.logs.filter((l) => l.level >= 50);
    assert.deepEqual(errors, [], 'nothing failed on the way down (such as a write to a closed store)');
    const store = new SqliteStore({ file, log: quiet });
    try {
      assert.equal(store.audit(10, { type: 'canary_round' }).length, 1, 'the round was recorded');
      const states = [...store.canaryStates().values()];
      assert.equal(states.length, 1);
      const probes = states[0]!.lastRound?.probes ?? [];
      assert.ok(probes.length > 0);
      assert.ok(probes.every((p) => p.verdict === 'inconclusive' && p.reason === 'canary_stopped'), JSON.stringify(probes));
    } finally {
      await store.close();
    }
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('warden start on SIGTERM: a stream still open after server.shutdownGrace gets the shutdown error event, and the process exits 0', async () => {
  const fleet = await startFleet({ scenario: parseScenario(SCENARIO), port: 0 });
  const proc = await startProcess(`${config(fleet, 'state: { memory: true }')}`.replace(`server: { adminToken: "${TOKEN}" }`, 'server: { shutdownGrace: 0s }'));
  try {
    const client = new OpenAI({ baseURL: `${proc.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 20_000 });
    const { chunks } = await openHeldStream(client);
    const exited = proc.kill('SIGTERM');
    const rest = await readRest(chunks);
    assert.ok(rest.error instanceof OpenAI.APIError, `the stream ended with ${String(rest.error)}`);
    assert.equal(rest.error.code, 'gateway_shutting_down');
    await exited;
    assert.equal(proc.child.exitCode, 0, proc.lines.join('\n'));
    const line = proc.lines.find((l) => l.includes('"cut"'));
    assert.ok(line, proc.lines.join('\n'));
    assert.deepEqual({ drained: JSON.parse(line).drained, cut: JSON.parse(line).cut }, { drained: 0, cut: 1 });
  } finally {
    await proc.kill();
    await fleet.close();
  }
});

test('warden start: a SIGHUP while it drains (a config agent reloading during a rollout) neither ends the process nor reloads', async () => {
  const fleet = await startFleet({ scenario: parseScenario(SCENARIO), port: 0 });
  const proc = await startProcess(`${config(fleet, 'state: { memory: true }')}`.replace(`server: { adminToken: "${TOKEN}" }`, 'server: { shutdownGrace: 60s }'));
  try {
    const client = new OpenAI({ baseURL: `${proc.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 20_000 });
    const { chunks, text } = await openHeldStream(client);
    const exited = proc.kill('SIGTERM');
    const gone = () => proc.child.exitCode !== null || proc.child.signalCode !== null;
    // Logged by the gateway's close(), which starts once the shutdown listens for SIGHUP.
    await until(() => proc.lines.some((l) => l.includes('shutting down: no new connections')) || gone(), 'the drain to start');
    proc.child.kill('SIGHUP');
    await until(() => proc.lines.some((l) => l.includes('SIGHUP while shutting down')) || gone(), 'the SIGHUP to be handled');
    assert.equal(proc.child.signalCode, null, 'the process is still draining');
    fleet.releaseStreams('Held');
    const rest = await readRest(chunks);
    assert.equal(rest.error, null, 'the stream in flight ends whole');
    assert.ok(text.length + rest.text.length > 0 && rest.finish === 'stop');
    await exited;
    assert.equal(proc.child.exitCode, 0, proc.lines.join('\n'));
    assert.ok(!proc.lines.some((l) => l.includes('config_reload')), 'no reload while shutting down');
  } finally {
    await proc.kill();
    await fleet.close();
  }
});
