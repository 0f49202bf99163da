// Starts Debian's Chromium through playwright-core for the end-to-end tests. No browser is
// ever downloaded: the executable is the system one (override with CHROMIUM_PATH).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A fresh browser profile (its own temporary --user-data-dir, so localStorage starts empty).
 * `locale` is the browser's language (navigator.languages, Accept-Language), e.g. 'fr-CA'.
 * Call `close()` when done: it also deletes the profile.
 */
export async function openBrowser({ viewport = { width: 1280, height: 800 }, locale } = {}) {
  const profileDir = await mkdtemp(join(tmpdir(), 'repairs-e2e-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    ...(locale ? { locale } : {}),
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}

/** Opens a page of the app with these localStorage entries (a signed-in session). */
export async function signedIn(page, entries) {
  await page.goto(`${BASE_URL}/no-such-page`);
  await page.evaluate((stored) => {
    for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
  }, entries);
}

/** Waits for the screen whose title (its one h1) is `name`. */
export const heading = (page, name) => page.getByRole('heading', { level: 1, name }).waitFor();

/**
 * Opens the More actions menu named `menu` on `page` (its button's name: 'More actions', or
 * 'More actions: <what it acts on>') and chooses the item named `action`.
 */
export async function chooseMoreAction(page, menu, action) {
  await page.getByRole('button', { name: menu, exact: true }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/**
 * Waits until nothing on the page says it is busy and its content has not changed for half a
 * second (at most 10 s): the parts a screen loads after its title (a dashboard's figures, a
 * professional's availability) are measured too.
 */
export async function quiet(page) {
  await page.waitForFunction(
    () => globalThis.document.querySelector('[aria-busy="true"]') === null,
    null,
    { timeout: 15_000 },
  );
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        let timer = setTimeout(done, 500);
        const giveUp = setTimeout(done, 10_000);
        const observer = new globalThis.MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(done, 500);
        });
        function done() {
          observer.disconnect();
          clearTimeout(timer);
          clearTimeout(giveUp);
          resolve(undefined);
        }
        observer.observe(globalThis.document.body, {
          childList: true,
          subtree: true,
          characterData: true,
        });
      }),
  );
}
