// End-to-end: personal information as a Montréal professional meets it, in French on a phone
// (390 x 844, a browser set to fr-CA), against the running stack. A member professional whose
// account is French receives a new-request email, asks for a copy of their data on their
// profile page and downloads the archive, follows the email's unsubscribe link (the new-request
// emails then show off on the profile), closes their account with their password and lands on
// the page that says so; signing in again is refused with words that say why. At every page, a
// French reader meets no English, no page outside /fr (./french-reader.mjs), and the new
// sections' targets are at least 44 x 44 px (./targets.mjs); the story fails at the end naming
// every problem met, with its step and its page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { screenLoaded } from './axe.mjs';
import { BASE_URL, heading, openBrowser, quiet } from './browser.mjs';
import { englishTexts, frenchReaderProblems, problemReport } from './french-reader.mjs';
import { startsWith, translator } from './i18n.mjs';
import { shot, waitForMessage } from './stack.mjs';
import { smallTargets } from './targets.mjs';
import {
  adminSession,
  customer,
  memberProfessional,
  MONTREAL,
  MONTREAL_PROPERTY,
  PASSWORD,
  placeRequest,
} from './test-accounts.mjs';

/** A phone held upright (an iPhone 14's CSS pixels), its browser set to Canadian French. */
const PHONE = { viewport: { width: 390, height: 844 }, locale: 'fr-CA' };

/** A zip archive's first bytes ("PK\x03\x04"). */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

describe('personal information, in French on a phone', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let browser;

  before(async () => {
    browser = await openBrowser(PHONE);
  });

  after(async () => {
    await browser.close();
  });

  it('a copy of their data, an unsubscribe link, the account closed and sign-in refused', async () => {
    const t = await translator('fr');
    const english = await englishTexts();
    const admin = await adminSession();
    const [client, pro] = await Promise.all([
      customer('Julie Bouchard', { verify: true }),
      memberProfessional('Sophie Tremblay', MONTREAL, admin, { lang: 'fr' }),
    ]);
    await placeRequest(client, 'Le chauffe-eau fuit dans le sous-sol.', MONTREAL_PROPERTY);
    // The new-request email, with its unsubscribe footer in French.
    const [, token] = await waitForMessage(
      'email.jsonl',
      pro.email,
      /\/fr\/unsubscribe\/([^\s/]+)/,
      30_000,
    );

    /** Every problem met on the way, with its step and its page. */
    const problems = [];
    const checked = [];
    const met = (page, step, what) =>
      problems.push({ where: `${step} (${new URL(page.url()).pathname})`, what });
    /** Checks the page as `step` reached it: French all the way. */
    const check = async (page, step, within) => {
      await screenLoaded(page);
      await quiet(page);
      checked.push(`${step} (${new URL(page.url()).pathname})`);
      problems.push(...(await frenchReaderProblems(page, step, english, { within })));
    };
    /**
     * Checks the section titled `title` (the profile's other parts hold what the professional
     * wrote, in their words): French all the way, and no target under 44 x 44 px.
     */
    const checkSection = async (page, step, title) => {
      const mark = `targets-${checked.length}-${title.length}`;
      await page
        .getByRole('region', { name: title, exact: true })
        .evaluate((section, value) => section.setAttribute('data-check', value), mark);
      const within = `[data-check="${mark}"]`;
      await check(page, step, within);
      for (const target of await smallTargets(page, { within })) {
        met(page, step, `target under 44 x 44 px: ${target}`);
      }
    };
    const report = () => problemReport(problems, checked);
    const page = browser.page;

    try {
      // Signed in on the French page, the professional opens their profile.
      await page.goto(`${BASE_URL}/fr/login-as-professional`);
      await heading(page, t('pages.loginAsProfessional'));
      await page.getByLabel(startsWith(t('forms.email'))).fill(pro.email);
      await page.getByLabel(startsWith(t('forms.password'))).fill(PASSWORD);
      await page.getByRole('button', { name: t('auth.logIn'), exact: true }).click();
      await page.waitForURL((url) => !url.pathname.endsWith('/login-as-professional'));
      await page.goto(`${BASE_URL}/fr/view-professional-profile`);
      await heading(page, t('pages.viewProfessionalProfile'));
      const ask = page.getByRole('button', { name: t('dataExport.ask') });
      await ask.waitFor();
      for (const title of ['notifications.title', 'dataExport.title', 'closeAccount.title']) {
        await checkSection(page, `the profile: ${title}`, t(title));
      }

      // A copy of their data: prepared off the request path, then downloaded.
      await ask.click();
      const download = page.getByRole('link', {
        name: startsWith(t('dataExport.download').split('{{')[0]),
      });
      await download.waitFor({ timeout: 60_000 });
      await checkSection(page, 'the copy ready', t('dataExport.title'));
      await shot(page, 'fr-phone-data-export');
      const href = await download.getAttribute('href');
      const archive = await page.request.get(new URL(href ?? '', page.url()).toString());
      if (archive.status() !== 200) {
        met(page, 'the copy downloaded', `the link answered ${archive.status()}`);
      } else {
        const bytes = [...(await archive.body()).subarray(0, 4)];
        if (JSON.stringify(bytes) !== JSON.stringify(ZIP_MAGIC)) {
          met(page, 'the copy downloaded', `the archive starts with ${bytes}, not a zip's bytes`);
        }
      }

      // The email's unsubscribe link: a page that asks first (mail scanners open links).
      await page.goto(`${BASE_URL}/fr/unsubscribe/${token}`);
      await heading(page, t('pages.unsubscribe'));
      const confirm = page.getByRole('button', { name: t('notifications.unsubscribe.confirm') });
      await confirm.waitFor();
      await check(page, 'the unsubscribe page');
      await confirm.click();
      await page.getByText(t('notifications.unsubscribe.done.newRequests')).waitFor();
      await check(page, 'unsubscribed');
      await shot(page, 'fr-phone-unsubscribed');

      // The profile shows the new-request emails off.
      await page.goto(`${BASE_URL}/fr/view-professional-profile`);
      await heading(page, t('pages.viewProfessionalProfile'));
      const topic = t('notifications.topics.newRequests.name');
      const newRequestEmails = page.getByRole('checkbox', {
        name: t('notifications.choice.email', { topic }),
      });
      await newRequestEmails.waitFor({ state: 'attached' });
      if (await newRequestEmails.isChecked()) {
        met(page, 'the profile after unsubscribing', 'the new-request emails are still on');
      }

      // Closing the account: the password, then the confirming dialog.
      await page.getByLabel(startsWith(t('closeAccount.password'))).fill(PASSWORD);
      await page
        .getByRole('button', { name: t('closeAccount.submit') })
        .first()
        .click();
      const dialog = page.getByRole('alertdialog');
      await dialog.waitFor();
      await check(page, 'closing: the dialog', '[role="alertdialog"]');
      await dialog.getByRole('button', { name: t('closeAccount.confirm') }).click();
      await page.waitForURL(`${BASE_URL}/fr/account-closed`, { timeout: 30_000 });
      await heading(page, t('pages.accountClosed'));
      await check(page, 'the account closed');
      await shot(page, 'fr-phone-account-closed');

      // Signing in again is refused, saying why.
      await page.goto(`${BASE_URL}/fr/login-as-professional`);
      await heading(page, t('pages.loginAsProfessional'));
      await page.getByLabel(startsWith(t('forms.email'))).fill(pro.email);
      await page.getByLabel(startsWith(t('forms.password'))).fill(PASSWORD);
      await page.getByRole('button', { name: t('auth.logIn'), exact: true }).click();
      await page.getByText(t('errors.reasons.ACCOUNT_CLOSED')).waitFor({ timeout: 15_000 });
      await check(page, 'signing in again');
    } catch (error) {
      if (error instanceof Error && problems.length > 0) error.message += `\n\n${report()}`;
      throw error;
    }
    assert.ok(problems.length === 0, report());
  });
});
