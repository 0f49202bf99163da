// End-to-end: the landing page and the language switch in headless Chromium, against the
// built app served at E2E_BASE_URL (the BFF, or `vite preview` before the BFF exists).
// Run with `npm run e2e` (node --test e2e/).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openBrowser } from './browser.mjs';

describe('landing page and language switch', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let browser;

  before(async () => {
    browser = await openBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  it('shows the English heading and the three figures', async () => {
    const { page } = browser;
    await page.goto(`${BASE_URL}/`);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    assert.equal((await heading.textContent())?.trim(), 'Emergency repairs, handled fast');
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    for (const figure of ['300+', '3500', '98%']) {
      await page.getByText(figure, { exact: true }).waitFor();
    }
    await page.getByText('verified professionals', { exact: true }).waitFor();
  });

  it('switches to French: loader, then /fr after the reload', async () => {
    const { page } = browser;
    const clickedAt = Date.now();
    await page.getByRole('button', { name: 'FR Français' }).click();

    const loader = page.getByRole('status').filter({ hasText: 'Passage au français' });
    await loader.waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('lang')), 'fr');

    await page.waitForURL(`${BASE_URL}/fr`);
    const waited = Date.now() - clickedAt;
    assert.ok(waited >= 1900, `reloaded after ${waited} ms, expected about 2000 ms`);

    await page
      .getByRole('heading', { level: 1, name: 'Réparations d’urgence, réglées rapidement' })
      .waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
    await page.getByText('98 %', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Se connecter' }).waitFor();
  });

  it('sends / to /fr from then on', async () => {
    const { page } = browser;
    await page.goto(`${BASE_URL}/`);
    await page.waitForURL(`${BASE_URL}/fr`);
    await page
      .getByRole('heading', { level: 1, name: 'Réparations d’urgence, réglées rapidement' })
      .waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
  });
});
