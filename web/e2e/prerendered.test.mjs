// End-to-end: the prerendered landing and sign-in pages (src/prerender). They paint with only
// the boot script loaded; the app takes over on the first interaction, opens a link clicked
// meanwhile with its router, and sends a sign-in typed before it arrived with what was typed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openBrowser } from './browser.mjs';

describe('prerendered pages', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let browser;
  /** @type {string[]} */
  let scripts = [];

  before(async () => {
    browser = await openBrowser({ viewport: { width: 390, height: 844 } });
    browser.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
  });

  after(async () => {
    await browser?.close();
  });

  it('paints the landing page with the boot script alone, then the app takes a link over', async () => {
    const { page } = browser;
    scripts = [];
    await page.goto(`${BASE_URL}/`, { waitUntil: 'networkidle' });
    await page
      .getByRole('heading', { level: 1, name: 'Emergency repairs, handled fast' })
      .waitFor();
    await page.getByText('Plumbing Services', { exact: true }).waitFor();
    assert.ok(
      scripts.every((path) => /\/assets\/(boot|preload-helper)-/.test(path)),
      `scripts before any interaction: ${scripts.join(', ')}`,
    );

    // The first click loads the app, which then opens the link without reloading the page.
    await page.evaluate(() => Object.assign(globalThis, { samePage: true }));
    await page.getByRole('link', { name: 'Sign in', exact: true }).first().click();
    await page.waitForURL(`${BASE_URL}/login`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => 'samePage' in globalThis), true);
    assert.ok(scripts.some((path) => /\/assets\/react-/.test(path)));
  });

  it('sends a sign-in typed before the app arrived, with what was typed', async () => {
    const { page } = browser;
    scripts = [];
    await page.goto(`${BASE_URL}/fr/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('Courriel').fill('nobody@example.ca');
    await page.getByLabel(/^Mot de passe\*?$/).fill('not-the-password');
    await page.getByLabel(/^Mot de passe\*?$/).press('Enter');
    await page.getByText('Courriel ou mot de passe incorrect.').waitFor();
    assert.equal(new URL(page.url()).search, '', 'the form was never sent by the browser');
    // The app hydrated the page as it was: the ids React gave the fields are the page's.
    const sameIds = await page.evaluate(() =>
      [...globalThis.document.querySelectorAll('label[for]')].every((label) => {
        const props = Object.keys(label).find((key) => key.startsWith('__reactProps$'));
        return props !== undefined && label[props].htmlFor === label.getAttribute('for');
      }),
    );
    assert.ok(sameIds, 'React hydrated the page with other ids');
  });
});
