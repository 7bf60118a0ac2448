// The dashboard in real Chromium (Debian's, driven by playwright-core) against a gateway and
// the simulated fleet with one provider whose replies start with stray tokens: canary rounds
// run from the page's button quarantine it, the Release button frees it, the audit panel shows
// it, the other manual actions work, a role's chain is changed, rolled out and rolled back from
// the Roles panel, and no JavaScript error is logged at any point. Each step leaves a
// screenshot under test-artifacts/dashboard/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { Fleet } from '../../src/sim/index.js';
import { chromiumAbsent, openPage } from '../helpers/chromium.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { HALF_HOUR, STRAY, STRAY_MODEL, strayProviders, strayScenario } from '../helpers/stray-fleet.js';

const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/dashboard/', import.meta.url));
const TOKEN = 'dash-browser-token';

const SCENARIO = strayScenario(11);

const config = (fleet: Fleet) => `
server: { adminToken: "${TOKEN}", dashboardSample: 500ms }
${strayProviders(fleet)}
models:
  chat-main:  { provider: openrouter, model: ${STRAY_MODEL}, timeouts: { firstByte: 2s } }
  chat-small: { provider: direct, model: gpt-4o-mini }
roles:
  chat:      { tier: degrade, models: [chat-main, chat-small], checks: [nonempty, prefix] }
  reasoning: { tier: strict, models: [chat-main] }
canary: { mode: enforce, watch: [chat-main], firstTokenLimit: 2s, languages: [en] }
`;

/** Sizes that tell whether the page fits its viewport (a string: it runs in the page, where DOM types live). */
const LAYOUT = `(() => {
  const panels = [...document.querySelectorAll('.panel')].map((p) => p.getBoundingClientRect());
  return {
    viewport: window.innerWidth,
    page: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    panels: panels.map((r) => Math.ceil(r.right)),
    columns: new Set(panels.map((r) => Math.round(r.left))).size,
  };
})()`;

const absent = chromiumAbsent('the dashboard browser test');

describe('dashboard in Chromium', { skip: absent }, () => {
  const clock = new ManualClock();
  let h: Harness;
  let browser: Browser;
  let page: Page;
  /** Every console error and uncaught page error, from the first load on. */
  const errors: string[] = [];
  let step = 0;
  let results = 0;

  const shot = async (name: string) => {
    await page.screenshot({ path: `${ARTIFACTS}${String(++step).padStart(2, '0')}-${name}.png`, fullPage: true });
  };
  const row = (route: string) => page.locator(`#routes tbody tr[data-route="${route}"]`);
  /** Confirms the open dialog and waits for the action's result line (`ok` unless said); returns its text. */
  const confirm = async (screenshot?: string, outcome: 'ok' | 'error' = 'ok') => {
    await page.locator('#confirm').waitFor({ state: 'visible' });
    if (screenshot) await shot(screenshot);
    await page.click('#confirm-ok');
    const line = page.locator(`#result[data-seq="${++results}"]`);
    await line.waitFor();
    const text = (await line.textContent()) ?? '';
    assert.equal(await line.getAttribute('data-outcome'), outcome, text);
    return text;
  };

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await startHarness({ clock, scenario: SCENARIO, configYaml: config });
    // Some traffic first, so the charts and numbers have something to show.
    for (let i = 0; i < 6; i++) await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: `Hello there, number ${i}!` }] });
    ({ browser, page } = await openPage(errors));
  });

  after(async () => {
    // The page goes first: a poll cut off by the gateway closing is not the page's error.
    await page?.close();
    await browser?.close();
    await h?.close();
  });

  test('rounds from the page quarantine the faulty route; Release frees it; the audit shows it', async () => {
    await page.goto(`${h.url}/dashboard`);
    await page.locator('#token').waitFor();
    assert.equal(await page.locator('#main').isVisible(), false, 'nothing is shown before the token');
    await shot('token');

    await page.fill('#token', TOKEN);
    await page.click('#connect');
    await row(STRAY).waitFor();
    assert.equal(await page.locator('#routes tbody tr[data-route]').count(), 5);
    assert.equal(await row(STRAY).getAttribute('data-state'), 'healthy');
    // The canary column tells a watched route not probed yet from a route the canary never probes.
    assert.equal((await row(STRAY).locator('td:nth-child(6)').textContent())?.trim(), 'no round yet');
    assert.equal((await row('chat-small@direct').locator('td:nth-child(6)').textContent())?.trim(), 'not watched');
    await page.locator('#chart-fallback svg').waitFor();
    await page.locator('#roles tbody tr[data-role="chat"]').waitFor();
    await shot('connected');

    await page.click('#run-round');
    const first = await confirm('round-confirm');
    assert.match(first, /Canary round at .*: 4 routes/);
    await row(STRAY).getByText('1 failed round in a row').waitFor();
    assert.equal(await row(STRAY).getAttribute('data-state'), 'healthy', 'one failed round changes nothing');
    await shot('after-first-round');

    clock.advance(HALF_HOUR);
    await page.click('#run-round');
    assert.match(await confirm(), new RegExp(`quarantine ${STRAY}`));
    await page.locator(`#routes tbody tr[data-route="${STRAY}"][data-state="quarantined"]`).waitFor();
    assert.match((await row(STRAY).textContent()) ?? '', /quarantine: /, 'the layer holding it');
    assert.match((await row(STRAY).textContent()) ?? '', /step 1 of 3 \(1 d\)/, 'the ladder step');

    await row(STRAY).locator('button[data-action="evidence"]').click();
    const prefix = page.locator(`tr[data-evidence-for="${STRAY}"] tr[data-probe="prefix"]`);
    await prefix.waitFor();
    assert.equal(await prefix.locator('.badge').first().getAttribute('data-verdict'), 'fail');
    assert.ok(((await prefix.locator('code').textContent()) ?? '').length > 0, 'the snippet is shown');
    await shot('quarantined-with-evidence');

    await row(STRAY).locator('button[data-action="release"]').click();
    assert.match(await confirm('release-confirm'), new RegExp(`Released ${STRAY}: now healthy`));
    await page.locator(`#routes tbody tr[data-route="${STRAY}"][data-state="healthy"]`).waitFor();

    await page.selectOption('#audit-route', STRAY);
    // The filter applies from the next poll on; the unfiltered table already holds the release
    // row, so wait for what only the filtered one lacks: the canary rounds (they name no route).
    await page.locator('#audit tbody tr[data-type="canary_round"]').first().waitFor({ state: 'detached' });
    await page.locator(`#audit tbody tr[data-type="released"][data-route="${STRAY}"]`).waitFor();
    assert.equal(await page.locator('#audit tbody tr[data-type="quarantine"]').count(), 1, 'the quarantine is there too');
    assert.equal(await page.locator('#audit tbody tr[data-type="canary_round"]').count(), 0, 'filtered by route');
    await shot('released-audit');
    assert.deepEqual(errors, []);
  });

  test('a runtime block with a reason and expiry, its removal, shed and restore', async () => {
    const route = 'chat-main@openrouter/H01';
    await row(route).locator('button[data-action="block"]').click();
    await page.locator('#confirm').waitFor({ state: 'visible' });
    // A block needs a reason: confirming without one keeps the dialog open and says so.
    await page.click('#confirm-ok');
    await page.locator('#confirm-error').waitFor();
    await page.fill('#confirm-reason', 'garbled replies since 14:05');
    await page.fill('#confirm-ttl', '2h');
    assert.match(await confirm('block-confirm'), new RegExp(`Blocked ${route} as blk_`));
    await page.locator(`#routes tbody tr[data-route="${route}"][data-state="blocked"]`).waitFor();
    const entry = page.locator(`#blocks tbody tr[data-route="${route}"]`);
    await entry.waitFor();
    assert.match((await entry.textContent()) ?? '', /garbled replies since 14:05.*in 2 h/);
    await shot('blocked');

    await entry.locator('button[data-action="remove"]').click();
    assert.match(await confirm(), /Removed block blk_/);
    await entry.waitFor({ state: 'detached' });
    await page.locator(`#routes tbody tr[data-route="${route}"][data-state="healthy"]`).waitFor();

    await row(route).locator('button[data-action="shed"]').click();
    await page.locator('#confirm').waitFor({ state: 'visible' });
    await page.fill('#confirm-reason', 'provider incident');
    assert.match(await confirm(), new RegExp(`Shed ${route}: now shed`));
    await page.locator(`#routes tbody tr[data-route="${route}"][data-state="shed"]`).waitFor();

    await row(route).locator('button[data-action="restore"]').click();
    await page.locator('#confirm').waitFor({ state: 'visible' });
    await page.fill('#confirm-reason', 'provider fixed it');
    assert.match(await confirm(), new RegExp(`Restored ${route}: now healthy`));
    await row(route).getByText('manually restored').waitFor();

    await page.selectOption('#audit-route', route);
    for (const type of ['block_added', 'block_removed', 'shed_manual', 'restore_manual']) await page.locator(`#audit tbody tr[data-type="${type}"]`).waitFor();
    assert.deepEqual(errors, []);
  });

  test('a role changed through the Roles panel: a refusal names the field; the change shows as overlay and serves the next request; a rollout compared side by side, rolled back; the overlay dropped', async () => {
    const role = page.locator('#role-table tbody tr[data-role="chat"]');
    const text = async () => (await role.textContent()) ?? '';
    /** Opens a role action's dialog and fills its inputs (`#confirm-<name>`). */
    const act = async (action: string, fill: Record<string, string>) => {
      await role.locator(`button[data-action="${action}"]`).click();
      await page.locator('#confirm').waitFor({ state: 'visible' });
      for (const [name, value] of Object.entries(fill)) await page.fill(`#confirm-${name}`, value);
    };
    const routeOf = async () => {
      const { response } = await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Which route answers now?' }] }).withResponse();
      return response.headers.get('x-warden-route') ?? '';
    };
    await role.waitFor();
    assert.equal(await role.getAttribute('data-source'), 'yaml');
    assert.match(await text(), /chat-main → chat-small.*nonempty, prefix.*auto.*yaml/);

    await act('chain', {});
    assert.equal(await page.inputValue('#confirm-models'), 'chat-main, chat-small', 'the dialog starts from the chain as it serves');
    await page.fill('#confirm-models', 'chat-small, chat-smal');
    await page.fill('#confirm-reason', 'chat-main is slow today');
    const refused = await confirm('role-chain-refused', 'error');
    assert.match(refused, /roles\.chat\.models\[1\]: unknown model "chat-smal" \(did you mean "chat-small"\?\)/);
    assert.match(refused, /invalid_role, field roles\.chat\.models\[1\]/);
    assert.equal(await role.getAttribute('data-source'), 'yaml', 'a refused change changes nothing');
    // Chromium logs every 4xx answer as a failed resource: the refusal asked for above is the one allowed.
    assert.deepEqual(errors.splice(0), [`console: Failed to load resource: the server responded with a status of 400 (Bad Request) at ${h.url}/admin/roles/chat`]);

    await act('chain', { models: 'chat-small, chat-main', reason: 'chat-main is slow today' });
    assert.match(await confirm('role-chain-confirm'), /Changed chat: models; it now serves chat-small → chat-main/);
    await page.locator('#role-table tbody tr[data-role="chat"][data-source="overlay"]').waitFor();
    assert.match(await text(), /chat-small → chat-main/);
    assert.match(await text(), /YAML: chat-main → chat-small/);
    assert.match(await text(), /by admin, .*chat-main is slow today/);
    assert.equal(await routeOf(), 'chat-small@direct', 'the next request uses the new chain');
    await shot('role-overlay');

    await act('rollout', { candidate: 'chat-main', weight: '50', reason: 'compare chat-main again' });
    assert.match(await confirm(), /Started a rollout on chat: chat-main takes 50%, chat-small 50%/);
    for (let i = 0; i < 8; i++) await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: `Hello from user ${i}` }] }, { headers: { 'x-warden-sticky': `user-${i}` } });
    // The figures row holds one line per model; all eight requests show once the next poll lands.
    const arms = page.locator('tr[data-figures-for="chat"] tr[data-arm]');
    const counted = () => arms.evaluateAll((rows) => rows.reduce((n, r) => n + Number(r.children[2]?.textContent), 0));
    for (let tries = 0; tries < 50 && (await counted()) !== 8; tries++) await page.waitForTimeout(100);
    assert.equal(await counted(), 8, 'each request on one arm');
    assert.deepEqual(await arms.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-arm'))), ['chat-main', 'chat-small'], 'candidate first');
    assert.match(await text(), /chat-main 50% · chat-small 50%/);
    assert.match((await arms.first().textContent()) ?? '', /candidate.*50%/);
    await shot('role-rollout');

    await act('rollback', { reason: 'chat-main still fails the gate' });
    assert.match(await confirm('role-rollback-confirm'), /Rolled back chat: it now serves chat-small → chat-main/);
    await page.locator('tr[data-figures-for="chat"]').waitFor({ state: 'detached' });
    assert.equal(await routeOf(), 'chat-small@direct', 'the chain from before the rollout, exactly');

    await act('drop', { reason: 'chat-main is back to normal' });
    assert.match(await confirm(), /Dropped the overlay of chat: it now serves chat-main → chat-small/);
    await page.locator('#role-table tbody tr[data-role="chat"][data-source="yaml"]').waitFor();
    assert.match(await routeOf(), /^chat-main@openrouter\//);

    await page.selectOption('#audit-route', '');
    for (const type of ['role_changed', 'rollout_started', 'rollout_rolled_back', 'role_overlay_dropped']) await page.locator(`#audit tbody tr[data-type="${type}"]`).first().waitFor();
    await shot('role-audit');
    assert.deepEqual(errors, []);
  });

  test('at phone width the panels stack and nothing overflows the page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // Layout is computed on demand, so reading sizes right after the resize sees the new width.
    const layout = (await page.evaluate(LAYOUT)) as { viewport: number; page: number; body: number; panels: number[]; columns: number };
    assert.equal(layout.viewport, 390);
    assert.ok(layout.page <= layout.viewport && layout.body <= layout.viewport, `no horizontal overflow: ${JSON.stringify(layout)}`);
    assert.ok(layout.panels.every((right) => right <= layout.viewport), `every panel fits: ${layout.panels}`);
    assert.equal(layout.columns, 1, 'the panels stack in one column');
    await shot('phone');
    assert.deepEqual(errors, []);
  });
});
