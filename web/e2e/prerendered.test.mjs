// End-to-end: the prerendered landing and sign-in pages (src/prerender). They paint with only
// the boot script loaded; the app takes over on the first interaction, opens a link clicked
// meanwhile with its router, and sends a sign-in typed before it arrived with what was typed.
// The slow phone's stories hold the app's code back until the test lets it through, on a CPU
// four times slower as Lighthouse takes a phone to be (and, for the typing story, with frames
// a second apart: a phone busy elsewhere), so that each step happens before or during the
// takeover, never by chance.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openBrowser } from './browser.mjs';

/**
 * The scripts a prerendered page loads before the app: its boot script and the chunks that
 * one imports (what the build names them does not matter), as the page `path` names them.
 */
async function bootScripts(path) {
  const html = await (await fetch(`${BASE_URL}${path}`)).text();
  const boot = /<script[^>]*src="([^"]*\/boot-[^"]*\.js)"/.exec(html)?.[1];
  assert.ok(boot, `${path} has no boot script`);
  const code = await (await fetch(`${BASE_URL}${boot}`)).text();
  const imports = [...code.matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g)];
  return new Set([
    boot,
    ...imports.map(([, spec]) => new URL(spec, `${BASE_URL}${boot}`).pathname),
  ]);
}

describe('prerendered pages', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let browser;
  /** @type {string[]} */
  let scripts = [];
  /** @type {Set<string>} */
  let boot;

  before(async () => {
    boot = await bootScripts('/');
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
      scripts.every((path) => boot.has(path)),
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

  describe('on a slow phone', () => {
    /** @type {Awaited<ReturnType<typeof openBrowser>>} */
    let phone;
    /** @type {() => void} */
    let release = () => {};
    /** @type {Promise<void>} */
    let held = Promise.resolve();
    let logIns = 0;
    /** @type {import('playwright-core').Page | undefined} */
    let tab;

    before(async () => {
      phone = await openBrowser({ viewport: { width: 390, height: 844 } });
      phone.context.on('request', (request) => {
        if (request.url().endsWith('/LogIn')) logIns += 1;
      });
      // The app's code (every script but the boot script) waits until the story releases it.
      await phone.context.route(/\/assets\/.*\.js$/, async (route) => {
        const path = new URL(route.request().url()).pathname;
        if (!boot.has(path)) await held;
        await route.continue();
      });
    });

    after(async () => {
      release();
      await phone?.close();
    });

    /**
     * Opens a prerendered page in a tab of its own, on the slow CPU, with the app's code held
     * back; `slowFrames`: frames a second apart too (only where a story needs them: the
     * browser's own waits for a steady page go by frames).
     */
    async function openHeld(path, { slowFrames = false } = {}) {
      await tab?.close();
      const page = await phone.context.newPage();
      tab = page;
      const cdp = await phone.context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      if (slowFrames)
        await page.addInitScript(() => {
          const nextFrame = globalThis.requestAnimationFrame.bind(globalThis);
          globalThis.requestAnimationFrame = (callback) =>
            nextFrame(() => setTimeout(() => nextFrame(callback), 1000));
        });
      held = new Promise((resolve) => {
        release = resolve;
      });
      await page.goto(`${BASE_URL}${path}`, { waitUntil: 'networkidle' });
      await page.evaluate(() => Object.assign(globalThis, { samePage: true }));
      logIns = 0;
      return page;
    }

    const signIn = (page) => page.getByRole('button', { name: 'Sign in', exact: true });
    const mismatch = (page) =>
      page.getByRole('alert').filter({ hasText: 'Email/Password Mismatch' });

    /** The sign-in was sent once by the app, on the same page, never by the browser. */
    async function assertSentByTheApp(page) {
      await mismatch(page).waitFor();
      assert.equal(new URL(page.url()).search, '', 'the form was sent by the browser');
      assert.equal(await page.evaluate(() => 'samePage' in globalThis), true);
      assert.equal(logIns, 1, 'the sign-in was sent once');
    }

    it('holds a sign-in sent with Enter, then clicked, before the app arrived, shows it busy, and sends it once', async () => {
      const page = await openHeld('/login');
      const password = page.getByLabel(/^Password\*?$/);
      await page.getByLabel('Email').fill('nobody@example.ca');
      await password.fill('not-the-password');
      await password.press('Enter');
      await page.locator('button[type="submit"][aria-busy="true"]').waitFor();
      // Nothing seems to happen on a slow phone: the person clicks the button too.
      await signIn(page).click();
      assert.equal(await mismatch(page).count(), 0);
      release();
      await assertSentByTheApp(page);
      assert.equal(await page.getByLabel('Email').inputValue(), 'nobody@example.ca');
      assert.equal(await page.locator('button[aria-busy="true"]').count(), 0);
    });

    it('opens a link clicked before the app arrived with the app', async () => {
      const page = await openHeld('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      assert.equal(new URL(page.url()).pathname, '/login');
      release();
      await page.waitForURL(`${BASE_URL}/forgot-password`);
      await page.getByRole('heading', { level: 1, name: 'Forgot password' }).waitFor();
      assert.equal(await page.evaluate(() => 'samePage' in globalThis), true);
    });

    it('keeps every character typed while the app takes over, in the field it was typed in', async () => {
      const page = await openHeld('/login', { slowFrames: true });
      const email = page.getByLabel('Email');
      const password = page.getByLabel(/^Password\*?$/);
      await email.click();
      await page.keyboard.type('nobody@exa');
      release();
      // React holds the page (its first render is in place): the visitor types on, then goes
      // to the password field, while the app finishes taking over.
      await page.waitForFunction(
        () => {
          const field = globalThis.document.querySelector('input[type="email"]');
          return (
            field !== null && Object.keys(field).some((key) => key.startsWith('__reactFiber$'))
          );
        },
        null,
        { polling: 20 },
      );
      await page.keyboard.type('mple.ca', { delay: 50 });
      await password.click();
      await page.keyboard.type('not-the-password', { delay: 50 });
      assert.equal(await email.inputValue(), 'nobody@example.ca');
      assert.equal(await password.inputValue(), 'not-the-password');
      await page.keyboard.press('Enter');
      await assertSentByTheApp(page);
    });
  });
});
