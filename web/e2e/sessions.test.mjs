// End-to-end: sessions that last, against the whole running stack (see ./stack.mjs). A
// customer types a repair request and leaves it: hours pass (the page's clock jumps ahead)
// and the page renews the session silently, the text still there. Then the password is reset
// from another browser: the session ends, the sign-in page says why, and signing in again
// brings the customer back to the request form with the text restored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, heading, openBrowser } from './browser.mjs';
import { legacyApi, shot, waitForMessage } from './stack.mjs';
import { customer, PASSWORD } from './test-accounts.mjs';

const stored = (page, key) => page.evaluate((name) => localStorage.getItem(name), key);

/** Signs in on the customer sign-in page the browser is on. */
async function logIn(page, email, password) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password\*?$/).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('sessions that last', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let browser;
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let elsewhere;

  before(async () => {
    [browser, elsewhere] = await Promise.all([openBrowser(), openBrowser()]);
  });

  after(async () => {
    await Promise.all([browser?.close(), elsewhere?.close()]);
  });

  it('keeps an idle customer signed in and their draft, and says why when the session ends', async () => {
    const { page } = browser;
    const account = await customer('Idle Customer', { verify: true });
    // The page's clock runs as the real one until it is moved on.
    await page.clock.install();
    await page.goto(`${BASE_URL}/login`);
    await heading(page, 'Sign in');
    await logIn(page, account.email, PASSWORD);
    await page.waitForURL(`${BASE_URL}/create-request`);
    await heading(page, 'Create request');
    const text = 'The water heater leaks into the basement, about a litre an hour.';
    const description = page.getByLabel('What do you need to fix?');
    await description.fill(text);
    const firstRefresh = await stored(page, 'refresh-token');
    assert.ok(firstRefresh, 'the sign-in stored a refresh token');

    // More than the access token's hour passes with the page open: it renews in place.
    await page.clock.fastForward('01:05:00');
    await page.waitForFunction(
      (before) => {
        const now = localStorage.getItem('refresh-token');
        return now !== null && now !== before;
      },
      firstRefresh,
      { timeout: 15_000 },
    );
    assert.equal(new URL(page.url()).pathname, '/create-request');
    assert.equal(await description.inputValue(), text);
    // The renewed session is good: a reload signs nobody out, and the draft comes back.
    await page.reload();
    await heading(page, 'Create request');
    assert.equal(await page.getByLabel('What do you need to fix?').inputValue(), text);

    // The password is reset from another browser: every session of the account ends.
    await legacyApi('/users/forgot-password', { body: { email: account.email } });
    const [, accountId, token] = await waitForMessage(
      'email.jsonl',
      account.email,
      /reset-password\/([0-9a-f-]+)\/([\w-]+)/,
    );
    assert.equal(accountId, account.id);
    const other = elsewhere.page;
    await other.goto(`${BASE_URL}/reset-password/${accountId}/${token}`);
    await other.getByLabel(/^New password/).fill('a-newer-password-2');
    await other.getByLabel(/^Confirm the new password/).fill('a-newer-password-2');
    await other.getByRole('button', { name: 'Save the new password' }).click();
    await other.waitForURL(`${BASE_URL}/login`);

    // The next renewal is refused: the sign-in page says why, and keeps what was typed.
    await page.clock.fastForward('01:05:00');
    await page.waitForURL(`${BASE_URL}/login`);
    await page.getByText('Your session has ended').waitFor();
    await page.getByText(/Your session was ended: your password was changed/).waitFor();
    await page.getByText('What you were typing is kept.', { exact: false }).waitFor();
    await shot(page, 'session-ended');
    assert.equal(await stored(page, 'token'), null);
    assert.equal(await stored(page, 'refresh-token'), null);

    await logIn(page, account.email, 'a-newer-password-2');
    await page.waitForURL(`${BASE_URL}/create-request`);
    await heading(page, 'Create request');
    assert.equal(await page.getByLabel('What do you need to fix?').inputValue(), text);
  });
});
