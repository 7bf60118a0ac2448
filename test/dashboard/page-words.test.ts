// The dashboard's words agree with what traffic meets, in real Chromium against a gateway on a
// hand-moved clock and the simulated fleet: a quarantined route an operator restored is served,
// and every column says so; a cost figure says which models it leaves out for want of a price,
// and how many answers carried no usage to count.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { Fleet } from '../../src/sim/index.js';
import { chromiumAbsent, openPage } from '../helpers/chromium.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { HALF_HOUR, STRAY, STRAY_MODEL, strayProviders, strayScenario } from '../helpers/stray-fleet.js';

const TOKEN = 'dash-words-token';
const STRAY_FLEET = strayScenario(23);
// An upstream that never reports usage, behind the role `mute`: priced, and still nothing to count.
const SCENARIO = { ...STRAY_FLEET, providers: { ...STRAY_FLEET.providers, mute: { models: ['mute/model'], usage: 'none' } } };
// chat-main has a price, chat-small none: the cost figures cover chat-main only.
const config = (fleet: Fleet) => `
server: { adminToken: "${TOKEN}", dashboardSample: 500ms }
${strayProviders(fleet)}
  mutedirect: { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('mute')}" }
models:
  chat-main:  { provider: openrouter, model: ${STRAY_MODEL}, profile: { price: { input: 0.3, output: 1.2 } } }
  chat-small: { provider: direct, model: gpt-4o-mini }
  chat-mute:  { provider: mutedirect, model: mute/model, profile: { price: { input: 0.3, output: 1.2 } } }
roles:
  chat:   { tier: degrade, models: [chat-main, chat-small] }
  lookup: { tier: degrade, models: [chat-small] }
  mute:   { tier: degrade, models: [chat-mute] }
canary: { mode: enforce, watch: [chat-main], firstTokenLimit: 2s, languages: [en] }
`;

const absent = chromiumAbsent('the dashboard page-words test');

describe('dashboard words against what traffic meets', { skip: absent }, () => {
  const clock = new ManualClock();
  const errors: string[] = [];
  let h: Harness;
  let browser: Browser;
  let page: Page;
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${h.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    assert.equal(res.ok, true, `${method} ${path}: ${res.status}`);
    return (await res.json()) as Record<string, any>;
  };
  const text = async (selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();
  const row = `#routes tbody tr[data-route="${STRAY}"]`;

  before(async () => {
    h = await startHarness({ clock, scenario: SCENARIO, configYaml: config });
    ({ browser, page } = await openPage(errors));
    await page.goto(`${h.url}/dashboard`);
    await page.fill('#token', TOKEN);
    await page.click('#connect');
    await page.locator('#status[data-tone="ok"]').waitFor();
  });

  after(async () => {
    await page?.close();
    await browser?.close();
    await h?.close();
  });

  test('a quarantined route an operator restored is served, and no column says it is held', async () => {
    await admin('POST', '/admin/canary/run', {});
    clock.advance(HALF_HOUR);
    const second = await admin('POST', '/admin/canary/run', {});
    assert.ok(second.routes.some((r: any) => r.route === STRAY && r.decisions.some((d: any) => d.type === 'quarantine')), 'two failed rounds quarantine it');
    await page.locator(`${row}[data-state="quarantined"]`).waitFor();
    assert.equal(await text(`${row} td:nth-child(7) .sub`), 'held now');
    // The audit's one-line summary counts the ladder step as the Ladder column does (it said "step: 0").
    const audited = page.locator(`#audit tbody tr[data-type="quarantine"][data-route="${STRAY}"] summary`);
    await audited.waitFor();
    assert.match((await audited.textContent()) ?? '', /ladder step 1( ·|$)/);
    assert.match(await text(`${row} td:nth-child(7)`), /^step 1 of 3/);

    await admin('POST', `/admin/routes/${encodeURIComponent(STRAY)}/restore`, { reason: 'provider fixed it' });
    // What traffic meets: the route is in service (the admin view and the merged blocklist agree).
    const { routes } = await admin('GET', '/admin/routes');
    const stray = routes.find((r: { id: string }) => r.id === STRAY);
    assert.deepEqual([stray.state, stray.restored, stray.canary.quarantine !== null], ['healthy', true, true], 'served, though the canary still records its quarantine');

    await page.locator(`${row}[data-state="healthy"]`).waitFor();
    assert.equal(await text(`${row} td:nth-child(2) .sub`), "manually restored: serving despite the canary's quarantine");
    assert.equal(await text(`${row} td:nth-child(3)`), '—', 'no layer holds it');
    assert.equal(await text(`${row} td:nth-child(7) .sub`), 'overridden by manual restore', 'the Ladder said "held now" for a route in service');
    assert.match(await text(`${row} td:nth-child(7)`), /^step 1 of 3 \(1 d\)/, 'the step taken is still shown');

    // A restore does not override a block: the State column must not read as if it did.
    const block = await admin('POST', '/admin/blocklist', { route: STRAY, reason: 'incident 7' });
    await page.locator(`${row}[data-state="blocked"]`).waitFor();
    assert.equal(await text(`${row} td:nth-child(2) .sub`), 'manually restored, but still blocked: a restore overrides only the canary');
    await admin('DELETE', `/admin/blocklist/${block.id}`);
    await page.locator(`${row}[data-state="healthy"]`).waitFor();
    assert.deepEqual(errors, []);
  });

  test('a quarantine past its end reads as ended, not "held now", before the canary records the end', async () => {
    // No expiry check runs here (the harness has no scheduler): the canary's record still
    // holds the quarantine, as it does between two checks in a running gateway.
    clock.advance(25 * 60 * 60_000);
    await page.locator(`${row} td:nth-child(7) .sub`, { hasText: 'ended' }).waitFor();
    const { routes } = await admin('GET', '/admin/routes');
    const stray = routes.find((r: { id: string }) => r.id === STRAY);
    assert.deepEqual([stray.state, stray.canary.quarantine !== null], ['healthy', true], 'the blocklist no longer honours it');
    assert.equal(await text(`${row} td:nth-child(2) .sub`), 'manually restored');
    assert.match(await text(`${row} td:nth-child(7)`), /^step 1 of 3 \(1 d\)ended$/);
  });

  test('with only some models priced, the cost figures say they cover the priced models and name the rest', async () => {
    await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Hello there' }] });
    await h.client.chat.completions.create({ model: 'lookup', messages: [{ role: 'user', content: 'Find it' }] });
    const lookup = '#roles tbody tr[data-role="lookup"]';
    const chat = '#roles tbody tr[data-role="chat"]';
    await page.locator(`${lookup} td:nth-child(3)`, { hasText: '1' }).waitFor();
    const cost = '#cards .card:last-child';
    assert.notEqual(await text(`${cost} .value`), 'unknown');
    assert.equal(await text(`${cost} .sub`), 'priced models only; no price configured (profile.price) for chat-small');
    // lookup's only model has no price: its $0.0000 read as free.
    assert.equal(await text(`${lookup} td:nth-child(7)`), 'unknown');
    assert.equal(await text(`${lookup} td:nth-child(8)`), 'unknown');
    assert.equal(await text(`${chat} td:nth-child(7) .sub`), 'priced models only');
    assert.deepEqual(errors, []);
  });

  test('answers that carried no usage are named on the Cost card, which counted none of them', async () => {
    const cost = '#cards .card:last-child';
    await h.client.chat.completions.create({ model: 'mute', messages: [{ role: 'user', content: 'Hello there' }] });
    const stream = await h.client.chat.completions.create({ model: 'mute', messages: [{ role: 'user', content: 'Hello again' }], stream: true });
    for await (const chunk of stream) void chunk;
    await page.locator(`${cost} .sub`, { hasText: 'carried no usage' }).waitFor();
    assert.equal(await text(`${cost} .sub`), 'priced models only; no price configured (profile.price) for chat-small; 2 answers carried no usage and are not counted (chat-mute@mutedirect)');
    assert.deepEqual(errors, []);
  });

  test("a rollout's figures give an unpriced model's cost as unknown, not $0.000000", async () => {
    await admin('POST', '/admin/roles/chat/rollout', { candidate: 'chat-small', weight: 50, reason: 'try the small one' });
    // Sticky keys place each request by a hash, so both arms get requests on every run.
    for (let i = 0; i < 8; i++) await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: `Hello ${i}` }] }, { headers: { 'x-warden-sticky': `user-${i}` } });
    const arm = (model: string) => `#role-table tr[data-figures-for="chat"] tr[data-arm="${model}"]`;
    await page.locator(`${arm('chat-small')} td:nth-child(3)`).filter({ hasNotText: /^0$/ }).waitFor();
    await page.locator(`${arm('chat-main')} td:nth-child(3)`).filter({ hasNotText: /^0$/ }).waitFor();
    assert.equal(await text(`${arm('chat-small')} td:nth-child(8)`), 'unknown');
    const priced = await text(`${arm('chat-main')} td:nth-child(8)`);
    assert.ok(priced.startsWith('$') && priced !== '$0.000000', `the priced model has a cost: ${priced}`);
    assert.deepEqual(errors, []);
  });
});
