// End-to-end: every prerendered page (src/prerender/pages.ts), in English and in French,
// opened signed out and signed in as each role, is taken over by the app without an uncaught
// error or a hydration complaint. A difference between the served HTML and the app's first
// render (React's errors #418 to #425 in a production build) would make React throw the
// prerendered markup away and draw the page again, and would page anyone watching page errors
// for every visitor.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openBrowser, signedIn } from './browser.mjs';
import { adminSession, CALGARY, customer, memberProfessional } from './test-accounts.mjs';

const PAGES = [
  '/',
  '/fr',
  '/professional',
  '/fr/professional',
  '/login',
  '/fr/login',
  '/login-as-professional',
  '/fr/login-as-professional',
];

/** What React says of a hydration that failed, minified (a production build) or not. */
const HYDRATION =
  /hydrat|react\.dev\/errors\/(418|419|421|422|423|425)|Minified React error #4(18|19|2[1-5])/i;

/**
 * Opens `path` in a new tab of `browser`, moves the pointer and the focus (the first
 * interaction, which starts the app), waits until the app has the page and the network is
 * quiet, and answers every uncaught error and every hydration warning the page raised.
 */
async function problemsOpening(browser, path) {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type()) && HYDRATION.test(message.text()))
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  try {
    await page.goto(`${BASE_URL}${path}`, { waitUntil: 'networkidle' });
    await page.mouse.move(200, 200);
    await page.keyboard.press('Tab');
    await page.waitForFunction(
      () => {
        const root = globalThis.document.getElementById('root');
        return root !== null && Object.keys(root).some((key) => key.startsWith('__reactContainer'));
      },
      null,
      { timeout: 15_000 },
    );
    await page.waitForLoadState('networkidle');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
  } finally {
    await page.close();
  }
  return problems;
}

describe('prerendered pages taken over without errors', () => {
  /** The browsers, by who is signed in: nobody, a customer, a professional, an admin. */
  const browsers = new Map();

  before(async () => {
    const admin = await adminSession();
    const [casey, pro] = await Promise.all([
      customer('Casey Takeover', { verify: true }),
      memberProfessional('Pat Takeover', CALGARY, admin),
    ]);
    const sessions = {
      'signed out': {},
      customer: casey.storage,
      professional: pro.storage,
      admin: { admin_token: admin.admin_token, admin_name: admin.admin_name },
    };
    for (const [who, storage] of Object.entries(sessions)) {
      const browser = await openBrowser();
      if (Object.keys(storage).length > 0) {
        await signedIn(browser.page, storage);
      }
      browsers.set(who, browser);
    }
  });

  after(async () => {
    await Promise.all([...browsers.values()].map((browser) => browser.close()));
  });

  for (const who of ['signed out', 'customer', 'professional', 'admin']) {
    it(`${who}: every prerendered page, in both languages`, async () => {
      const found = [];
      for (const path of PAGES) {
        const problems = await problemsOpening(browsers.get(who), path);
        found.push(...problems.map((problem) => `${path}: ${problem}`));
      }
      assert.deepEqual(found, [], found.join('\n'));
    });
  }
});
