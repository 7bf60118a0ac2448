// A probe Warden itself fails to read (its own code throws while handling the answer: an
// `internal` failure) says nothing about the route: it is judged inconclusive and keeps the
// round from counting either way — no quarantine, no clean round towards release. JSON that is
// not a chunk (`"choices":[null]`) once made Warden's reading throw; it is the upstream's
// garbage, reported as a transport failure like any other unreadable event (real sockets: the
// probe client against a scripted upstream).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Catalog } from '../../src/catalog/index.js';
import { decideRound, escalatingLadder, INITIAL_ROUTE_STATE, judgeProbe, probeRequest, sendProbe } from '../../src/canary/index.js';
import { parseConfig } from '../../src/config/index.js';
import { PoolSet } from '../../src/upstream/index.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-upstream.js';
import { DAY, ENFORCE, T0, result } from './fixtures.js';

const ROUTE = 'odd@scripted';

describe('a probe Warden cannot read', () => {
  let upstream: ScriptedUpstream;
  let pools: PoolSet;
  let catalog: Catalog;
  before(async () => {
    upstream = await startScriptedUpstream({
      'odd-model': async (write) => write('data: {"id":"c1","object":"chat.completion.chunk","choices":[null]}\n\n'),
    });
    pools = new PoolSet();
    catalog = new Catalog(parseConfig(`
providers:
  scripted: { kind: openai-compatible, baseUrl: "${upstream.baseUrl}" }
models:
  odd: { provider: scripted, model: odd-model }
`, 'test', {}));
  });
  after(async () => {
    await pools.close();
    await upstream.close();
  });

  test('a chunk that is JSON but not a chunk is the upstream\u2019s invalid answer, not Warden\u2019s failure', async () => {
    const request = probeRequest('latency', { languages: ['en'], language: 'en' });
    const exchange = await sendProbe({ model: catalog.get('odd')!, endpoint: null }, request, pools, 5_000);
    assert.deepEqual([exchange.outcome, exchange.error], ['transport', 'upstream_invalid_response']);
  });

  test('an internal failure is judged inconclusive, and neither quarantines nor credits the route', () => {
    const request = probeRequest('latency', { languages: ['en'], language: 'en' });
    const exchange = { outcome: 'internal', status: 200, text: '', finishReason: null, firstTokenMs: null, totalMs: 3, error: 'gateway_internal_error' } as const;
    const judged = judgeProbe(request, exchange, ENFORCE);
    assert.deepEqual([judged.verdict, judged.reason], ['inconclusive', 'gateway_internal_error']);

    // Beside probes that passed, the round is still not clean: it tested the route less than whole.
    const round = decideRound(ROUTE, T0, [judged, result('prefix', 'pass'), result('fact', 'pass')]);
    assert.equal(round.verdict, 'inconclusive');
    assert.deepEqual(round.reasons, ['latency:gateway_internal_error']);

    // A quarantined route one clean round from release stays as it was; so does a route one failed round from quarantine.
    const quarantined = { ...INITIAL_ROUTE_STATE, consecutiveCleanRounds: 1, quarantine: { step: 0, since: T0 - DAY / 2, until: T0 + DAY / 2, reasons: ['prefix:stray_prefix'] } };
    const outcome = escalatingLadder.advance(quarantined, round, { now: T0, policy: ENFORCE, inServiceAfterQuarantine: 5 });
    const failing = escalatingLadder.advance({ ...INITIAL_ROUTE_STATE, consecutiveFailedRounds: 1 }, round, { now: T0, policy: ENFORCE, inServiceAfterQuarantine: 5 });
    assert.deepEqual([failing.state.consecutiveFailedRounds, failing.state.quarantine], [1, null], 'no quarantine, no streak reset');
    assert.equal(outcome.state.consecutiveCleanRounds, 1, 'not credited');
    assert.ok(outcome.state.quarantine, 'still quarantined');
    assert.equal(outcome.decisions.filter((d) => d.type === 'release_early').length, 0);
  });
});
