// End-to-end: a member professional reading French pauses and resumes from the dashboard on a
// phone (390 x 844), one tap each. « Pause jusqu’à demain 8 h » asks the server
// (AccountsService.SetProfessionalAvailability) and the dashboard, read again from the server,
// says until when; « Reprendre maintenant » ends it. Between the two taps a request placed in
// their area does not reach their open-requests list, and after the resume it does. The page
// fits the phone's width and axe finds nothing serious in either state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { BASE_URL, heading, openBrowser, signedIn } from './browser.mjs';
import { startsWith, translator } from './i18n.mjs';
import { legacyApi } from './stack.mjs';
import {
  adminSession,
  CALGARY,
  customer,
  memberProfessional,
  placeRequest,
} from './test-accounts.mjs';

const PHONE = { width: 390, height: 844 };

/** The ids of the open requests the professional matches now (the legacy list, one page). */
async function openRequestIds(pro) {
  const rows = await legacyApi(`/requests/request-list/${pro.id}`, {
    token: pro.storage['professional-token'],
  });
  return rows.map((row) => row._id);
}

/** Fails when the page is wider than the phone (a sideways scroll). */
async function fitsThePhone(page) {
  const width = await page.evaluate(() => globalThis.document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `the dashboard is ${width} px wide on a ${PHONE.width} px phone`);
}

describe('pause and resume from the dashboard', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let browser;

  before(async () => {
    browser = await openBrowser({ viewport: PHONE });
  });

  after(async () => {
    await browser?.close();
  });

  it('a professional pauses until tomorrow and resumes, in French, on a phone', async () => {
    const t = await translator('fr');
    const admin = await adminSession();
    const [pro, casey] = await Promise.all([
      memberProfessional('Paulette Pause', CALGARY, admin, { lang: 'fr' }),
      customer('Casey Paused', { verify: true }),
    ]);
    const { page } = browser;
    await signedIn(page, { ...pro.storage, lang: 'fr' });
    await page.goto(`${BASE_URL}/professional-dashboard`);
    await heading(page, t('pages.professionalDashboard'));
    const summary = page.getByTestId('availability-summary');
    await summary.filter({ hasText: t('availability.working') }).waitFor();
    await fitsThePhone(page);

    await page.getByRole('button', { name: t('availability.pauseTomorrow') }).click();
    const pausedPrefix = t('availability.pausedUntil', { time: '' }).split(' ')[0];
    await summary.filter({ hasText: startsWith(pausedPrefix) }).waitFor();
    // Tomorrow 8:00 in Calgary's time zone, the professional's, said there.
    assert.match(await summary.textContent(), /^En pause jusqu’au .+ 0?8 h 00/);
    await page.getByRole('button', { name: t('availability.resume') }).waitFor();
    await fitsThePhone(page);
    await assertAccessible(page, 'the dashboard of a paused professional (fr, 390 px)');

    const whilePaused = await placeRequest(casey, 'Paused: the tap in the bathroom drips.');
    assert.ok(!(await openRequestIds(pro)).includes(whilePaused), 'a paused professional matched');

    await page.getByRole('button', { name: t('availability.resume') }).click();
    await summary.filter({ hasText: t('availability.working') }).waitFor();
    await page.getByRole('button', { name: t('availability.pauseTomorrow') }).waitFor();
    await assertAccessible(page, 'the dashboard after the resume (fr, 390 px)');
    assert.ok((await openRequestIds(pro)).includes(whilePaused), 'not matched after the resume');
  });
});
