import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { WEB_ROOT } from './build.js';

/** Debian's Chromium, driven by playwright-core (Playwright's own browser download cannot reach its host here). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** A fresh browser profile (its own localStorage) at a desktop size. */
export async function newPerson(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** Screenshots are artifacts: under <repo>/.tmp/screenshots/web/ (gitignored). */
export const SHOTS = path.resolve(WEB_ROOT, '..', '..', '.tmp', 'screenshots', 'web');

export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  // Finite animations (a dialog's fade and pop) are shown finished: the picture is of the settled page, not a frame of it.
  await page.screenshot({ path: file, timeout: 10_000, animations: 'disabled' });
  return file;
}

/** Collects page errors so a test can assert the client threw none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e?.stack ?? e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  return errors;
}

/**
 * Every URL the page requested on the server's origin. The client may use only what a third-party client can:
 * the public API (/api/v10), the CDN, its own assets and pages, and the Gateway.
 */
export function watchRequests(page: Page, origin: string): { offPublicApi: () => string[] } {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(origin)) seen.push(new URL(r.url()).pathname);
  });
  page.on('websocket', (ws) => seen.push(new URL(ws.url()).pathname));
  const allowed =
    /^\/(api\/v10\/|assets\/|attachments\/|emojis\/|stickers\/|avatars\/|$)|^\/(app|login|register|channels|invite|oauth2|developers|application-directory)(\/|$)/;
  return { offPublicApi: () => seen.filter((p) => !allowed.test(p) || p.startsWith('/__dev')) };
}
