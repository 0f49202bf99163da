// End-to-end: sales taxes as a Montrealer meets them, in French on a phone (390 x 844, a
// browser set to fr-CA), against the running stack, in two browsers. A member professional
// based in Montréal, whose account is French, gives their GST/HST and QST numbers on their
// profile page, then quotes 200,00 $ on a customer's plumbing request in Montréal with taxes
// added (the box ticked for them). The customer sees the quote's fee, TPS, TVQ and total on
// its card, then "fee + taxes = total" on the hire page, whose button names the total; hires
// with the test card 4242 4242 4242 4242; and opens the receipt from the hired job's card: the
// professional's name and both numbers, TPS 5 % and TVQ 9,975 % with their amounts, the total.
// At every page, a French reader meets no English, no "€", no page outside /fr and no target
// under 44 x 44 px (./french-reader.mjs, ./targets.mjs); the story fails at the end naming
// every problem met, with its step and its page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { screenLoaded } from './axe.mjs';
import { BASE_URL, heading, openBrowser, quiet } from './browser.mjs';
import { englishTexts, frenchReaderProblems, problemReport } from './french-reader.mjs';
import { startsWith, translator } from './i18n.mjs';
import { shot } from './stack.mjs';
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

/** The professional's registration numbers, typed the way people do: spaces, lower case. */
const GST_HST_NUMBER = '123456789RT0001';
const QST_NUMBER = '1234567890TQ0001';

/** 200,00 $ with GST 5 % (10,00 $) and QST 9,975 % (19,95 $): 229,95 $. */
const NBSP = '\u00a0';
const FEE = `200,00${NBSP}$`;
const TPS = `10,00${NBSP}$`;
const TVQ = `19,95${NBSP}$`;
const TOTAL = `229,95${NBSP}$`;

/** The rows of the sale summary inside `scope`, as read: label and amount, spaces squashed. */
const saleRows = (scope) =>
  scope
    .getByTestId('sale')
    .first()
    .evaluate((sale) =>
      [...sale.querySelectorAll(':scope > div')]
        .map((row) => [...row.children].map((cell) => cell.textContent).join(' '))
        .filter((text) => text.trim() !== '')
        .map((text) => text.replace(/[\s\u00a0\u202f]+/g, ' ').trim()),
    );
const plain = (text) => text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();

describe('taxes on a Montréal job, in French on a phone', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>[]} */
  let browsers = [];

  before(async () => {
    browsers = await Promise.all([openBrowser(PHONE), openBrowser(PHONE)]);
  });

  after(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
  });

  it('numbers on the profile, a quote with TPS and TVQ, the total held, the receipt', async () => {
    const t = await translator('fr');
    const english = await englishTexts();
    const [customerBrowser, proBrowser] = browsers;
    const admin = await adminSession();
    const proName = 'Mathieu Gagnon';
    const words = 'Le drain de la douche est bouché depuis ce matin.';
    const [client, pro] = await Promise.all([
      customer('Camille Roy', { verify: true }),
      memberProfessional(proName, MONTREAL, admin, { lang: 'fr' }),
    ]);
    const requestId = await placeRequest(client, words, MONTREAL_PROPERTY);

    /** Every problem met on the way, with its step and its page. */
    const problems = [];
    const checked = [];
    const met = (page, step, what) =>
      problems.push({ where: `${step} (${new URL(page.url()).pathname})`, what });
    /** Checks the page as `step` reached it: French all the way, no €, 44 px targets. */
    const check = async (page, step) => {
      await screenLoaded(page);
      await quiet(page);
      checked.push(`${step} (${new URL(page.url()).pathname})`);
      problems.push(...(await frenchReaderProblems(page, step, english)));
    };
    /** Says so when `rows` (a sale summary's) are not `expected`. */
    const expectRows = (page, step, rows, expected) => {
      const want = expected.map(plain);
      if (JSON.stringify(rows) !== JSON.stringify(want)) {
        met(page, step, `the amounts read ${JSON.stringify(rows)}, not ${JSON.stringify(want)}`);
      }
    };
    const report = () => problemReport(problems, checked);

    try {
      // The professional signs in on the French page and gives their numbers on the profile.
      const pp = proBrowser.page;
      await pp.goto(`${BASE_URL}/fr/login-as-professional`);
      await heading(pp, t('pages.loginAsProfessional'));
      await pp.getByLabel(startsWith(t('forms.email'))).fill(pro.email);
      await pp.getByLabel(startsWith(t('forms.password'))).fill(PASSWORD);
      await pp.getByRole('button', { name: t('auth.logIn'), exact: true }).click();
      await pp.waitForURL((url) => !url.pathname.endsWith('/login-as-professional'));
      await pp.goto(`${BASE_URL}/fr/update-professional-profile`);
      await heading(pp, t('professionalProfile.title'));
      const gst = pp.getByLabel(startsWith(t('professionalProfile.gstHstNumber')));
      await gst.waitFor();
      await check(pp, 'professional: the profile form');
      await gst.fill('123 456 789 rt 0001');
      await pp.getByLabel(startsWith(t('professionalProfile.qstNumber'))).fill(QST_NUMBER);
      await shot(pp, 'fr-phone-tax-numbers');
      await pp.getByRole('button', { name: t('professionalProfile.save') }).click();
      await pp.waitForURL(`${BASE_URL}/fr/update-professional-licence`, { timeout: 30_000 });
      await check(pp, 'professional: the profile saved');

      // The quote form adds the taxes for them: the box is ticked.
      await pp.goto(`${BASE_URL}/fr/request-apply/${requestId}`);
      await heading(pp, t('pages.requestApply'));
      const addTaxes = pp.getByRole('checkbox', { name: t('quoteForm.addTaxes') });
      await addTaxes.waitFor({ state: 'attached' });
      await check(pp, 'professional: the quote form');
      if (!(await addTaxes.isChecked())) {
        met(pp, 'professional: the quote form', `"${t('quoteForm.addTaxes')}" is not ticked`);
      }
      for (const target of await smallTargets(pp, { within: 'form' })) {
        met(pp, 'professional: the quote form', `target under 44 x 44 px: ${target}`);
      }
      await pp.getByLabel(startsWith(t('quoteForm.hours'))).fill('2');
      await pp.getByLabel(startsWith(t('trip.form.arrival'))).fill('40');
      const fee = pp.getByLabel(startsWith(t('quoteForm.fee')));
      await fee.fill('200,00');
      await pp.getByRole('button', { name: t('quoteForm.send') }).click();
      await pp.getByText(t('quoteForm.sent')).first().waitFor({ timeout: 30_000 });
      await check(pp, 'professional: the quote sent');

      // The customer signs in and reads the quote's fee, TPS, TVQ and total on its card.
      const page = customerBrowser.page;
      await page.goto(`${BASE_URL}/fr/login`);
      await heading(page, t('pages.login'));
      await page.getByLabel(startsWith(t('forms.email'))).fill(client.email);
      await page.getByLabel(startsWith(t('forms.password'))).fill(PASSWORD);
      await page.getByRole('button', { name: t('auth.logIn'), exact: true }).click();
      await page.waitForURL((url) => !url.pathname.endsWith('/login'));
      await page.goto(`${BASE_URL}/fr/application-list/${requestId}`);
      await heading(page, t('pages.applicationList'));
      const card = page.getByRole('article').filter({ hasText: proName });
      await card.waitFor({ timeout: 15_000 });
      await check(page, 'customer: the quotes received');
      const expected = [
        `${t('jobs.fee')} ${FEE}`,
        `TPS 5${NBSP}% ${TPS}`,
        `TVQ 9,975${NBSP}% ${TVQ}`,
      ];
      expectRows(page, 'customer: the quote’s card', await saleRows(card), [
        ...expected,
        `${t('billing.total')} ${TOTAL}`,
      ]);
      await shot(page, 'fr-phone-taxed-quote');

      // The hire page: fee + taxes = the amount held, named on the button.
      await card.getByRole('link', { name: t('jobs.hireName', { name: proName }) }).click();
      await heading(page, t('pages.hire'));
      await page.getByTestId('total').getByText(TOTAL).waitFor({ timeout: 15_000 });
      await check(page, 'customer: the hire page');
      expectRows(page, 'customer: the hire page', await saleRows(page), [
        ...expected,
        `${t('hire.amountPayable')} ${TOTAL}`,
      ]);
      await shot(page, 'fr-phone-taxed-hire');
      const hire = page.getByRole('button', { name: t('hire.pay', { amount: TOTAL }) });
      await page.getByLabel(startsWith(t('billing.cardNumber'))).fill('4242 4242 4242 4242');
      await hire.click();
      await page.waitForURL(`${BASE_URL}/fr/hired-successfully`, { timeout: 30_000 });
      await heading(page, t('pages.hiredSuccessfully'));

      // The receipt, from the hired job's card: both taxes and the professional's numbers.
      await page.goto(`${BASE_URL}/fr/user-view-request/${requestId}`);
      await heading(page, t('pages.userViewRequest'));
      const receiptLink = page.getByRole('link', { name: t('receipts.link'), exact: true });
      await receiptLink.waitFor({ timeout: 15_000 });
      await receiptLink.click();
      await page.waitForURL((url) => url.pathname.startsWith('/fr/receipts/'));
      await heading(page, t('pages.receipt'));
      await page.getByTestId('sale').waitFor({ timeout: 15_000 });
      await check(page, 'customer: the receipt');
      const receipt = plain(await page.locator('main').innerText());
      for (const shown of [
        proName,
        plain(t('receipts.gstHstNumber', { number: GST_HST_NUMBER })),
        plain(t('receipts.qstNumber', { number: QST_NUMBER })),
        plain(t('receipts.states.hold')),
      ]) {
        if (!receipt.includes(shown)) met(page, 'customer: the receipt', `no "${shown}"`);
      }
      expectRows(page, 'customer: the receipt', await saleRows(page), [
        `${t('billing.subtotal')} ${FEE}`,
        `TPS 5${NBSP}%${t('billing.taxNumber', { number: GST_HST_NUMBER })} ${TPS}`,
        `TVQ 9,975${NBSP}%${t('billing.taxNumber', { number: QST_NUMBER })} ${TVQ}`,
        `${t('billing.total')} ${TOTAL}`,
      ]);
      await page.getByRole('button', { name: t('receipts.print') }).waitFor();
      await shot(page, 'fr-phone-receipt');
    } catch (error) {
      if (error instanceof Error && problems.length > 0) error.message += `\n\n${report()}`;
      throw error;
    }
    assert.ok(problems.length === 0, report());
  });
});
