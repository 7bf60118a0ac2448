// Debian's Chromium, headless, for the dashboard tests (driven by playwright-core): the flags
// that keep it quiet and offline, the reason to skip when it is absent, and a page that
// records every console error and uncaught page error from its first load on.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** false when Chromium is there, else why the browser tests are skipped (printed once). */
export function chromiumAbsent(what: string): string | false {
  const absent = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (apt-get install chromium)`;
  if (absent) console.log(`# skipping ${what}: ${absent}`);
  return absent;
}

/** A fresh browser (its own temporary profile) and a 1280×800 page; `errors` collects what it logs as errors. */
export async function openPage(errors: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()} at ${msg.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  return { browser, page };
}
