// The dashboard page tells the truth between redraws, in real Chromium against a gateway on a
// hand-moved clock and the simulated fleet: relative times follow the gateway's clock while
// the data stays the same, and the counterfactual numbers say what came of the requests.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { Fleet } from '../../src/sim/index.js';
import { chromiumAbsent, openPage } from '../helpers/chromium.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const TOKEN = 'dash-truth-token';
const SCENARIO = { seed: 5, providers: { one: { models: ['model-a'] }, two: { models: ['model-b'] } } };
const config = (fleet: Fleet) => `
server: { adminToken: "${TOKEN}", dashboardSample: 500ms }
breaker: { failures: 3, cooldown: 30s }
providers:
  one: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('one')}" }
  two: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('two')}" }
models:
  chat-main:  { provider: one, model: model-a }
  chat-spare: { provider: two, model: model-b }
roles:
  chat:   { tier: degrade, models: [chat-main, chat-spare] }
  lookup: { tier: degrade, models: [chat-main] }
`;

const absent = chromiumAbsent('the dashboard page-truth test');

describe('dashboard page between redraws', { skip: absent }, () => {
  const clock = new ManualClock();
  const errors: string[] = [];
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let block = '';
  let gatewayStopped = false;
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${h.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    assert.equal(res.ok, true, `${method} ${path}: ${res.status}`);
    return (await res.json()) as Record<string, any>;
  };
  const text = async (selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();
  /** Moves the gateway's clock and waits for a poll that saw it (the status line shows the gateway's time). */
  const advance = async (ms: number) => {
    const before = await text('#status');
    clock.advance(ms);
    await page.locator('#status').filter({ hasNotText: before }).waitFor();
  };

  before(async () => {
    h = await startHarness({ clock, scenario: SCENARIO, configYaml: config });
    ({ browser, page } = await openPage(errors));
  });

  after(async () => {
    await page?.close();
    await browser?.close();
    if (gatewayStopped) await h.fleet.close();
    else await h?.close();
  });

  test('"in 1 min 30 s" counts down with the gateway clock though no data changed', async () => {
    block = (await admin('POST', '/admin/blocklist', { route: 'chat-spare@two', reason: 'incident 9', ttl: '90s' })).id;
    await page.goto(`${h.url}/dashboard`);
    await page.fill('#token', TOKEN);
    await page.click('#connect');
    const until = '#routes tbody tr[data-route="chat-spare@two"] td:nth-child(4) .sub';
    const expiry = '#blocks tbody tr[data-route="chat-spare@two"] td:nth-child(3) .sub';
    await page.locator(until).waitFor();
    assert.equal(await text(until), 'in 1 min 30 s');
    assert.equal(await text(expiry), 'in 1 min 30 s');

    await advance(40_000);
    assert.equal(await text(until), 'in 50 s');
    assert.equal(await text(expiry), 'in 50 s');
    assert.deepEqual(errors, []);
  });

  test('a degrade role that answers 503 shows its 503 rate; the Fallbacks card counts only requests answered elsewhere', async () => {
    await admin('DELETE', `/admin/blocklist/${block}`);
    h.fleet.setFaults('one', { error500: 1 });
    for (let i = 0; i < 2; i++) await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: `Hello ${i}` }] });
    for (let i = 0; i < 2; i++) await assert.rejects(h.client.chat.completions.create({ model: 'lookup', messages: [{ role: 'user', content: `Find ${i}` }] }), { status: 503 });
    const { counterfactuals: cf } = await admin('GET', '/admin/dashboard');
    assert.equal(cf.fallbacks, 2);

    // The 503 column of a degrade role: it said "—" whatever came of its requests.
    await page.locator('#roles tbody tr[data-role="lookup"] td:nth-child(6)', { hasText: '100% (2)' }).waitFor();
    assert.equal(await text('#roles tbody tr[data-role="chat"] td:nth-child(6)'), '0% (0)');
    assert.equal(await text('#cards .card:first-child .value'), '2');
    assert.deepEqual(errors, []);
  });

  test('with no price configured the Cost card says cost is unknown, not "$0.0000"', async () => {
    // Requests were answered (above), but no model has a profile.price: nothing was counted.
    const cost = '#cards .card:last-child';
    assert.equal(await text(`${cost} .label`), 'Cost');
    assert.equal(await text(`${cost} .value`), 'unknown');
    assert.equal(await text(`${cost} .sub`), 'no price configured (profile.price) for any model');
    assert.equal(await text('#roles tbody tr[data-role="chat"] td:nth-child(7)'), 'unknown');
    assert.equal(await text('#roles tbody tr[data-role="chat"] td:nth-child(8)'), 'unknown');
  });

  test('a cost too small for its digits never reads as "$0.0000"', async () => {
    const shown = await page.evaluate(`import('./dashboard/format.js').then(({ usd }) => [usd(0), usd(0.00003), usd(0.00006), usd(0.0000004, 6), usd(1.23456), usd(250.5), usd(null)])`);
    assert.deepEqual(shown, ['$0.0000', '<$0.0001', '$0.0001', '<$0.000001', '$1.2346', '$250.50', '—']);
  });

  test('an open breaker whose cooldown is over says the next request probes it, not "retry 10 s ago"', async () => {
    const route = '#routes tbody tr[data-route="chat-main@one"]';
    await page.locator(`${route}[data-state="open"]`).waitFor();
    assert.equal(await text(`${route} td:nth-child(5) .sub:last-child`), 'retry in 30 s');
    assert.equal(await text(`${route} td:nth-child(4) .sub`), 'in 30 s');
    assert.equal(await text(`${route} td:nth-child(6)`), 'no canary configured');
    // Time open is counted when a breaker closes: with this one open it said "no time open yet".
    assert.equal(await text('#cards .card:nth-child(2) .value'), '1');
    assert.equal(await text('#cards .card:nth-child(2) .sub'), 'time out of service is counted when a breaker closes');
    await advance(40_000);
    assert.equal(await text(`${route} td:nth-child(5) .sub:last-child`), 'retry due: the next request probes it');
    assert.equal(await text(`${route} td:nth-child(4) .sub`), 'retry due: the next request probes it');
    const { routes } = await admin('GET', '/admin/routes');
    assert.equal(routes.find((r: { id: string }) => r.id === 'chat-main@one').state, 'open', 'still open until a request comes');
  });

  test('a share that is neither none nor all never reads as 0% or 100%', async () => {
    const shown = await page.evaluate(`import('./dashboard/format.js').then(({ percent }) => [0, 1 / 3000, 0.0123, 0.5, 0.955, 2999 / 3000, 1, null].map(percent))`);
    assert.deepEqual(shown, ['0%', '<0.1%', '1.2%', '50%', '95.5%', '>99.9%', '100%', '—']);
  });

  test('at 1280×800 every table fits its panel: a block\'s end and Remove button, a model\'s fallback rate are not cut off', async () => {
    await admin('POST', '/admin/blocklist', { route: 'chat-spare@two', reason: 'garbled replies since 14:05, see incident 42', ttl: '2h' });
    await page.locator('#blocks tbody tr[data-route="chat-spare@two"]').waitFor();
    await page.locator('#model-rates tbody tr[data-model="chat-main"]').waitFor();
    const overflowing = (await page.evaluate(`[...document.querySelectorAll('.scroll')].filter((s) => s.scrollWidth > s.clientWidth).map((s) => s.firstElementChild.id)`)) as string[];
    assert.deepEqual(overflowing, []);
  });

  test('"Forget token" while a poll is under way stays forgotten when its answer would have come', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = page.waitForRequest('**/admin/dashboard?*');
    await page.route('**/admin/dashboard?*', async (route) => {
      await gate;
      await route.continue().catch(() => undefined); // aborted by the page meanwhile
    }, { times: 1 });
    await held;
    const failed = page.waitForEvent('requestfailed');
    await page.click('#forget');
    await page.locator('#token-form').waitFor();
    release();
    // Either the page gave the poll up, or its answer came and (the defect) brought the session back.
    await Promise.race([failed, page.locator('#session').waitFor()]);
    assert.equal(await page.locator('#session').isVisible(), false);
    assert.equal(await page.locator('#main').isVisible(), false);
    assert.equal(await text('#status'), 'not connected');

    await page.fill('#token', TOKEN);
    await page.click('#connect');
    await page.locator('#status[data-tone="ok"]').waitFor();
  });

  test('when the gateway stops answering, the last data stays, marked stale and dated', async () => {
    const live = await text('#status');
    assert.match(live, /^live · gateway time /);
    await h.gateway.close();
    gatewayStopped = true;
    await page.locator('#status[data-tone="error"]').waitFor();
    assert.match(await text('#status'), new RegExp(`^cannot reach the gateway: .* · showing data from ${live.slice('live · gateway time '.length)}$`));
    assert.equal(await page.locator('main[data-stale]').isVisible(), true);
    assert.equal(await page.locator('#routes tbody tr[data-route="chat-main@one"]').count(), 1, 'the routes are still shown');
    // Chromium logs each refused connection; nothing else.
    assert.deepEqual(errors.filter((e) => !e.includes('net::ERR_CONNECTION_REFUSED')), []);
  });
});
