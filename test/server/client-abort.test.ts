// A client that goes away is not the upstream route's fault: no breaker failure, no route
// health. (Warden's own failures while answering — what the exchange's sink throws — are
// told apart from the upstream's in test/upstream/sink-failure.test.ts: no realistic request
// still makes writing the answer throw since every x-warden-* header is escaped to ASCII.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abortStreamAfterFirstChunk, startHarness, type Harness } from '../helpers/harness.js';
import { metricsText, seriesValue } from '../helpers/metrics.js';


describe('a client that goes away', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      configYaml: (fleet) => `
breaker: { failures: 2, minCalls: 1000 }
providers:
  slowdirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('Slow')}" }
models:
  slow: { provider: slowdirect, model: slow/model }
`,
    });
  });
  after(async () => {
    await h.close();
  });

  // Three times: with a breaker opening after two failures, a blamed route would be open.
  test('aborting its stream three times leaves the route\u2019s breaker closed', async () => {
    for (let i = 0; i < 3; i++) await abortStreamAfterFirstChunk(h, 'slow');
    assert.equal(h.gateway.breakers.snapshot('slow@slowdirect')?.consecutiveFailures ?? 0, 0);
    assert.equal(h.gateway.breakers.state('slow@slowdirect'), 'closed');
    const m = await metricsText(h.url);
    assert.equal(seriesValue(m, 'warden_upstream_attempts_total{route="slow@slowdirect",error_class="aborted"}'), 3);
    assert.equal(seriesValue(m, 'warden_requests_total{role="-",route="slow@slowdirect",outcome="client_aborted"}'), 3);
  });
});
