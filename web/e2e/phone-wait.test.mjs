// End-to-end: the wait between phone codes, against the whole stack. A code was just texted
// (through the legacy call), then the code step is opened afresh, as after a reload, which
// forgot when the next code may be asked for: asking again is refused by the server with the
// seconds left, and the screen counts them down, in French, with the link waiting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, heading, openBrowser, signedIn } from './browser.mjs';
import { translator } from './i18n.mjs';
import { freshPhone, legacyApi } from './stack.mjs';
import { customer } from './test-accounts.mjs';

describe('the wait between phone codes', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let browser;

  before(async () => {
    browser = await openBrowser({ viewport: { width: 390, height: 844 } });
  });

  after(async () => {
    await browser.close();
  });

  it('counts down the seconds the server names when a new code is asked for too soon', async () => {
    const t = await translator('fr');
    const person = await customer('Camille Attente', { verify: false });
    const phone = freshPhone();
    await legacyApi('/sms/send-otp', {
      body: { id: person.id, phoneNumber: phone.national, countryCode: '+1', sms_updates: 'no' },
      token: person.storage.token,
    });

    const { page } = browser;
    await signedIn(page, { ...person.storage, lang: 'fr' });
    await page.goto(`${BASE_URL}/otp-verify/${person.id}/${phone.e164.slice(1)}`);
    await heading(page, t('pages.otpVerify'));
    const resend = page.getByRole('button', { name: t('phone.resend') });
    await resend.click();

    const status = page.getByRole('status').filter({ hasText: /\d+ s\./ });
    await status.waitFor();
    const [, announced] = /(\d+) s\./.exec((await status.textContent()) ?? '') ?? [];
    const seconds = Number(announced);
    assert.ok(seconds >= 1 && seconds <= 30, `announced ${announced} s`);
    assert.equal(await resend.getAttribute('aria-disabled'), 'true');
    await page.getByText(t('phone.resendIn', { seconds: seconds - 1 }), { exact: true }).waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
  });
});
