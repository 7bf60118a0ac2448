// The dashboard in real Chromium (Debian's, driven by playwright-core) against a gateway and
// the simulated fleet with one provider whose replies start with stray tokens: canary rounds
// run from the page's button quarantine it, the Release button frees it, the audit panel shows
// it, the other manual actions work, and no JavaScript error is logged at any point. Each step
// leaves a screenshot under test-artifacts/dashboard/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Fleet } from '../../src/sim/index.js';
import { ManualClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/dashboard/', import.meta.url));
const TOKEN = 'dash-browser-token';
const MODEL = 'deepseek/deepseek-chat';
const STRAY = 'chat-main@openrouter/Stray';
const HALF_HOUR = 30 * 60_000;

const SCENARIO = {
  seed: 11,
  providers: {
    Stray: { models: [MODEL], faults: { prefix: 1 } },
    H01: { models: [MODEL] },
    H02: { models: [MODEL] },
    H03: { models: [MODEL] },
    small: { models: ['gpt-4o-mini'] },
  },
};

const config = (fleet: Fleet) => `
server: { adminToken: "${TOKEN}", dashboardSample: 500ms }
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
  direct:     { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('small')}" }
models:
  chat-main:  { provider: openrouter, model: ${MODEL}, timeouts: { firstByte: 2s } }
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

const absent = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (apt-get install chromium)`;
if (absent) console.log(`# skipping the dashboard browser test: ${absent}`);

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
  /** Confirms the open dialog and waits for the action's result line; returns its text. */
  const confirm = async (screenshot?: string) => {
    await page.locator('#confirm').waitFor({ state: 'visible' });
    if (screenshot) await shot(screenshot);
    await page.click('#confirm-ok');
    const line = page.locator(`#result[data-seq="${++results}"]`);
    await line.waitFor();
    const text = (await line.textContent()) ?? '';
    assert.equal(await line.getAttribute('data-outcome'), 'ok', text);
    return text;
  };

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await startHarness({ clock, scenario: SCENARIO, configYaml: config });
    // Some traffic first, so the charts and numbers have something to show.
    for (let i = 0; i < 6; i++) await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: `Hello there, number ${i}!` }] });
    // launch() runs a fresh, temporary user-data dir of its own.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
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
