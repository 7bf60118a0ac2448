// What the fleet reports about itself: counters, the request log, open streams, determinism.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ask, fleetFor, MODEL, post } from './fleet-helpers.js';

test('counters and the request log record each request, with its provider preferences', async (t) => {
  const fleet = await fleetFor(t);
  const prefs = { order: ['Gamma'], allow_fallbacks: false, sort: 'price' };
  await post(`${fleet.openrouterBaseUrl}/chat/completions`, ask('hi', { provider: prefs }));
  await post(`${fleet.providerBaseUrl('Beta')}/chat/completions`, ask('hi', { stream: true }));
  const stats = await fleet.waitFor((s) => s.requests === 2 && s.openRequests === 0);
  assert.equal(stats.providers.Gamma?.requests, 1);
  assert.equal(stats.providers.Beta?.streams, 1);
  assert.equal(stats.providers.Alpha?.requests, 0);
  const [first, second] = stats.recent;
  assert.deepEqual(first?.providerPrefs, prefs);
  assert.deepEqual([first?.path, first?.model, first?.served, first?.stream, first?.status, first?.fault], ['/api/v1/chat/completions', MODEL, 'Gamma', false, 200, null]);
  assert.deepEqual([second?.path, second?.served, second?.stream, second?.providerPrefs], ['/p/Beta/v1/chat/completions', 'Beta', true, null]);
  assert.ok(typeof first?.at === 'number');
});

test('a client abort mid-stream closes the stream at once', async (t) => {
  const fleet = await fleetFor(t, { seed: 1, providers: { Slow: { models: [MODEL], tokensPerSecond: 20, replyTokens: 400 } } });
  const abort = new AbortController();
  const res = await fetch(`${fleet.providerBaseUrl('Slow')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ask('hi', { stream: true })),
    signal: abort.signal,
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  await fleet.waitFor((s) => s.openStreams === 1 && s.providers.Slow?.openStreams === 1);
  abort.abort();
  const stats = await fleet.waitFor((s) => s.openStreams === 0 && s.openRequests === 0);
  assert.equal(stats.providers.Slow?.openStreams, 0);
  assert.equal(stats.recent.at(-1)?.status, 200);
});

test('after reset the same requests draw the same faults', async (t) => {
  const fleet = await fleetFor(t, { seed: 9, providers: { Flaky: { models: ['m'], faults: { error503: 0.3, prefix: 0.3, empty: 0.1 } } } });
  const url = `${fleet.providerBaseUrl('Flaky')}/chat/completions`;
  const run = async () => {
    const faults: Array<string | null> = [];
    for (let i = 0; i < 20; i++) {
      await post(url, { model: 'm', messages: [{ role: 'user', content: `message ${i}` }] });
    }
    for (const entry of fleet.stats().recent) faults.push(entry.fault);
    return faults;
  };
  const first = await run();
  assert.ok(new Set(first).size >= 3, `a mix of faults: ${first.join(',')}`);
  fleet.reset();
  assert.equal(fleet.stats().requests, 0);
  assert.deepEqual(fleet.stats().recent, []);
  assert.deepEqual(await run(), first);
});

test('setFaults replaces faults and is validated; the admin API does the same', async (t) => {
  const fleet = await fleetFor(t);
  const url = `${fleet.providerBaseUrl('Alpha')}/chat/completions`;
  fleet.setFaults('alpha', { empty: 1 });
  assert.equal((await post(url, ask('hi'))).json().choices[0]?.message.content, '');
  fleet.setFaults('Alpha', {});
  assert.notEqual((await post(url, ask('hi'))).json().choices[0]?.message.content, '');
  assert.throws(() => fleet.setFaults('Nobody', {}), /unknown provider/);
  assert.throws(() => fleet.setFaults('Alpha', { prefix: 3 }), /prefix: expected a number between 0 and 1/);

  const put = (name: string, body: unknown) =>
    fetch(`${fleet.url}/sim/providers/${name}/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal((await put('Alpha', { error500: 1 })).status, 200);
  assert.equal((await post(url, ask('hi'))).status, 500);
  assert.equal((await put('Alpha', { error500: -1 })).status, 400);
  assert.equal((await put('Alpha', { nonsense: 1 })).status, 400);
  assert.equal((await put('Nobody', {})).status, 404);

  const stats = (await (await fetch(`${fleet.url}/sim/stats`)).json()) as { requests: number };
  assert.equal(stats.requests, 3, 'admin calls are not counted');
  assert.equal((await fetch(`${fleet.url}/sim/reset`, { method: 'POST' })).status, 200);
  assert.equal(fleet.stats().requests, 0);
});

test('waitFor resolves at once when the predicate already holds and rejects with the last stats on timeout', async (t) => {
  const fleet = await fleetFor(t);
  assert.equal((await fleet.waitFor((s) => s.requests === 0)).requests, 0);
  await assert.rejects(fleet.waitFor((s) => s.requests === 99, 50), /timed out after 50 ms; last stats: \{"requests":0/);
});

test('close ends hanging requests and open streams', async (t) => {
  const fleet = await fleetFor(t, { seed: 1, providers: { Slow: { models: [MODEL], tokensPerSecond: 5, replyTokens: 400 } } });
  const url = `${fleet.providerBaseUrl('Slow')}/chat/completions`;
  const init = (body: unknown, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const hanging = fetch(url, init(ask('hi'), { 'x-sim-fault': 'hang' }));
  const streaming = await fetch(url, init(ask('hi', { stream: true })));
  await fleet.waitFor((s) => s.openRequests === 2 && s.openStreams === 1 && s.providers.Slow?.faults.hang === 1);
  await fleet.close();
  await assert.rejects(hanging);
  await assert.rejects(streaming.text());
  const stats = await fleet.waitFor((s) => s.openRequests === 0 && s.openStreams === 0);
  assert.equal(stats.recent.length, 2);
});
