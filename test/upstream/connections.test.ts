// Live traffic to an origin gets the provider's configured connections, whatever else (endpoint
// discovery's small pool) reached that origin first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../helpers/harness.js';

const STREAMS = 12;

test('streams through an OpenRouter model are not held to the discovery pool\u2019s connections', async () => {
  const h = await startHarness({
    configYaml: (fleet) => `
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}", connections: ${STREAMS * 2} }
models:
  slow-or: { provider: openrouter, model: slow/model, routes: discover }
`,
  });
  const controller = new AbortController();
  try {
    const model = h.gateway.catalog.get('slow-or')!;
    assert.deepEqual(model.lastDiscovery?.error, null, 'discovery ran (and reached the origin) before traffic');
    assert.deepEqual(model.routes.map((r) => r.endpoint), ['Slow']);

    // Slow streams for about 20 s: every one must be open upstream at the same time.
    const streams = Array.from({ length: STREAMS }, () =>
      h.client.chat.completions.create({ model: 'slow-or', messages: [{ role: 'user', content: 'Hello there' }], stream: true }, { signal: controller.signal }),
    );
    // Settled by the abort below when the assertion fails first.
    for (const s of streams) s.catch(() => undefined);
    const seen = await h.fleet.waitFor((s) => s.providers.Slow!.openStreams === STREAMS);
    assert.equal(seen.openStreams, STREAMS);
    await Promise.all(streams);
  } finally {
    controller.abort();
    await h.fleet.waitFor((s) => s.openStreams === 0).catch(() => undefined);
    await h.close();
  }
});
