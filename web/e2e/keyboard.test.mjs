// End-to-end, with the keyboard only: a customer signs up, verifies the phone and reaches the
// account settings without a mouse click. On the way it checks what axe cannot see: the skip
// link comes first, every control that takes the focus shows it, each new screen moves the
// focus to its title, a refused field carries its error as its description, and a dialog
// keeps the focus until Escape closes it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openBrowser } from './browser.mjs';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  freshPhone,
  legacyApi,
  phoneCode,
  RUN,
  shot,
} from './stack.mjs';

/** What the focused element is, and whether the focus can be seen on it. */
function describeFocus() {
  const element = globalThis.document.activeElement;
  if (!element || element === globalThis.document.body) return null;
  const shows = (node) => {
    const style = globalThis.getComputedStyle(node);
    return (
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) ||
      style.boxShadow !== 'none'
    );
  };
  // A visually hidden input (checkbox, switch) shows its focus on the control beside it.
  const hidden = element.getBoundingClientRect().width <= 1;
  const shown = hidden
    ? element.parentElement?.querySelector('[data-focus-visible]') !== null
    : shows(element);
  const label = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
  const labelled = element.labels?.[0]?.textContent?.trim() ?? '';
  return {
    tag: element.tagName.toLowerCase(),
    name: label || labelled || element.getAttribute('name') || '',
    id: element.id,
    shown,
  };
}

describe('keyboard only', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let browser;
  /** Focus stops where the focus could not be seen. */
  const unseen = new Set();
  /** The customer the story signs up. */
  let customerId = '';

  before(async () => {
    browser = await openBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  /** Presses Tab (Shift+Tab backwards) until the focused control's name matches. */
  async function tabTo(pattern, { backwards = false, max = 60 } = {}) {
    const { page } = browser;
    for (let step = 0; step < max; step += 1) {
      await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
      const focus = await page.evaluate(describeFocus);
      if (!focus) continue;
      if (!focus.shown) unseen.add(`${new URL(page.url()).pathname}: ${focus.tag} "${focus.name}"`);
      if (pattern.test(focus.name)) return focus;
    }
    throw new Error(`no control named ${pattern} within ${max} Tab presses`);
  }

  /** The screen's title has the focus (it moved there after the navigation). */
  async function titleFocused(name) {
    const { page } = browser;
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.waitForFunction(
      (title) =>
        globalThis.document.activeElement?.tagName === 'H1' &&
        globalThis.document.activeElement.textContent?.trim() === title,
      name,
    );
  }

  it('signs up, verifies the phone and reaches the account settings', async () => {
    const { page } = browser;
    await page.goto(`${BASE_URL}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();

    // The skip link is the first stop and moves the focus to the main content.
    const skip = await tabTo(/./, { max: 1 });
    assert.equal(skip.name, 'Skip to main content');
    await shot(page, 'keyboard-skip-link');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => globalThis.document.activeElement?.id), 'main-content');

    await tabTo(/^Create your free account$/);
    await shot(page, 'keyboard-focus-ring');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${BASE_URL}/register`);
    await titleFocused('Sign up');

    // Sent empty, the form focuses the first refused field, its error as its description.
    await tabTo(/^Sign up$/);
    await page.keyboard.press('Enter');
    await page.getByText('Please enter your name.').waitFor();
    const refused = await page.evaluate(() => {
      const field = globalThis.document.activeElement;
      const described = (field?.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => globalThis.document.getElementById(id)?.textContent ?? '')
        .join(' ');
      return { invalid: field?.getAttribute('aria-invalid'), described };
    });
    assert.deepEqual(refused, { invalid: 'true', described: 'Please enter your name.' });

    await page.keyboard.type('Kim Keyboard');
    await tabTo(/^Email/);
    await page.keyboard.type(`keyboard-${RUN}@example.ca`);
    await tabTo(/^Password/);
    await page.keyboard.type('a-good-password-1');
    await page.keyboard.press('Enter');

    await page.waitForURL(/\/phone-otp\/[0-9a-f-]+$/);
    customerId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    await titleFocused('Verify your phone');
    // Signed in on a public screen, the header shows the session, not the sign-in links.
    const header = page.getByRole('navigation', { name: 'Main' });
    await header.getByRole('link', { name: 'Kim Keyboard, my account' }).waitFor();
    await header.getByRole('link', { name: 'Sign out' }).waitFor();
    assert.equal(await header.getByRole('link', { name: /sign in/i }).count(), 0);
    const phone = freshPhone();
    await tabTo(/^Phone number/);
    await page.keyboard.type(phone.national);
    await tabTo(/^Send the code$/);
    await page.keyboard.press('Enter');

    await page.waitForURL(/\/otp-verify\//);
    await titleFocused('Enter your code');
    await tabTo(/^4-digit code/);
    await page.keyboard.type(await phoneCode(phone.e164));
    await page.keyboard.press('Enter');

    await page.waitForURL(`${BASE_URL}/thanks-signup`);
    await titleFocused('Thank you for signing up');
    await tabTo(/^Create your first request$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${BASE_URL}/create-request`);
    await titleFocused('Create request');

    await tabTo(/^My profile$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${BASE_URL}/user-account-setting`);
    await titleFocused('My profile');
    await page.getByLabel('Name').waitFor();
    assert.equal(await page.getByLabel('Name').inputValue(), 'Kim Keyboard');

    assert.deepEqual([...unseen], [], 'every control that takes the focus shows it');
  });

  it('keeps the focus inside a dialog, closes it with Escape and returns to its button', async () => {
    const { page } = browser;
    const admin = await legacyApi('/admin/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await page.evaluate((token) => localStorage.setItem('admin_token', token), admin.admin_token);
    await page.goto(`${BASE_URL}/view-user/${customerId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();

    await tabTo(/^Delete$/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Do you want to delete this customer?' });
    await dialog.waitFor();
    const inDialog = () =>
      page.evaluate(
        () => globalThis.document.activeElement?.closest('[role="alertdialog"]') !== null,
      );
    await page.waitForFunction(
      () => globalThis.document.activeElement?.closest('[role="alertdialog"]') !== null,
    );
    await shot(page, 'keyboard-dialog');
    for (let step = 0; step < 10; step += 1) {
      await page.keyboard.press(step < 5 ? 'Tab' : 'Shift+Tab');
      assert.ok(await inDialog(), `the focus left the dialog after ${step + 1} presses`);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(
      () => globalThis.document.activeElement?.textContent?.trim() === 'Delete',
    );
    assert.deepEqual([...unseen], [], 'every control that takes the focus shows it');
  });
});
