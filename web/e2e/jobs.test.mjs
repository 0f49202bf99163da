// End-to-end: the job story against the whole running stack, on the server's offline test
// gateway, once in English and once in French. A member professional in Calgary quotes on a
// customer's plumbing request through /request-apply/{id} while the customer keeps
// /application-list/{id} open: the quote appears there without a reload. The customer hires
// (English: 4242 4242 4242 4242; French: 4000 0025 0000 3155, which asks for authentication,
// approved), the professional then sees the street address on /professional-active-requests,
// the customer's request page shows the job with a tap to call the professional, the
// customer marks the job completed after a dialog that names the amount, the order shows
// captured in /user-order-history, the customer's receipt (in their account's English) and
// the professional's paid email (in the run's language) arrive, the customer reviews it, the
// public profile shows the rating and the admin sees the order.
// Every text is read from the app's own catalogues in the run's language. With
// E2E_SHOTS_DIR set, the quote list (English) and the hire screen (French) are saved.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, heading, openBrowser, signedIn } from './browser.mjs';
import { startsWith, translator } from './i18n.mjs';
import { shot, waitForMessage } from './stack.mjs';
import {
  adminSession,
  CALGARY,
  customer,
  memberProfessional,
  placeRequest,
} from './test-accounts.mjs';

/** The street of the requests `placeRequest` places: only the hired professional reads it. */
const STREET = '225 7 Ave SW';

const RUNS = [
  { language: 'en', card: '4242 4242 4242 4242', authenticates: false, suffix: 'English' },
  { language: 'fr', card: '4000 0025 0000 3155', authenticates: true, suffix: 'Français' },
];

describe('the job story', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>[]} */
  let browsers = [];

  before(async () => {
    browsers = await Promise.all([openBrowser(), openBrowser(), openBrowser()]);
  });

  after(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
  });

  for (const { language, card, authenticates, suffix } of RUNS) {
    it(`in ${language}: quote live, hire, address, completion and capture, review, admin`, async () => {
      const t = await translator(language);
      const [customerBrowser, proBrowser, adminBrowser] = browsers;
      const admin = await adminSession();
      const [casey, pro] = await Promise.all([
        customer(`Casey Hirer ${suffix}`, { verify: true }),
        memberProfessional(`Quinn Quoter ${suffix}`, CALGARY, admin, { lang: language }),
      ]);
      const requestId = await placeRequest(casey);
      const proName = `Quinn Quoter ${suffix}`;

      // The customer opens the quote list first and waits for its stream.
      const page = customerBrowser.page;
      await signedIn(page, { ...casey.storage, lang: language });
      await page.goto(`${BASE_URL}/application-list/${requestId}`);
      await heading(page, t('pages.applicationList'));
      await page.getByText(t('jobs.liveQuotes')).waitFor({ timeout: 15_000 });
      await page
        .getByRole('status')
        .getByText(t('jobs.quoteCount', { count: 0 }))
        .waitFor();
      await page.evaluate(() => {
        globalThis.sameDocument = true;
      });

      // The professional quotes through the form.
      const proPage = proBrowser.page;
      await signedIn(proPage, { ...pro.storage, lang: language });
      await proPage.goto(`${BASE_URL}/request-apply/${requestId}`);
      await heading(proPage, t('pages.requestApply'));
      await proPage.getByLabel(startsWith(t('quoteForm.hours'))).fill('2');
      await proPage.getByLabel(startsWith(t('trip.form.arrival'))).fill('40');
      await proPage.getByLabel(startsWith(t('quoteForm.fee'))).fill('45');
      await proPage.getByRole('button', { name: t('quoteForm.send') }).click();
      await proPage.getByText(t('quoteForm.sent')).first().waitFor();

      // The quote arrives on the customer's open list, in the same document.
      const hireLink = page.getByRole('link', { name: t('jobs.hireName', { name: proName }) });
      await hireLink.waitFor({ timeout: 15_000 });
      assert.equal(await page.evaluate(() => globalThis.sameDocument), true);
      await page
        .getByRole('status')
        .getByText(t('jobs.quoteCount', { count: 1 }))
        .waitFor();
      await page.getByRole('article').getByText(t('ratings.none')).waitFor();
      if (language === 'en') await shot(page, 'application-list-live-en');

      // The hire, on the card of this run.
      await hireLink.click();
      await heading(page, t('pages.hire'));
      const fee = language === 'fr' ? '45,00\u00a0$' : '$45.00';
      await page.getByTestId('total').getByText(fee).waitFor();
      // The customer's account is English: the service is named in the page's language.
      const service = language === 'fr' ? 'Services de plomberie' : 'Plumbing Services';
      await page
        .getByRole('region', { name: t('hire.summary') })
        .getByText(service)
        .waitFor();
      if (language === 'fr') await shot(page, 'hire-fr');
      await page.getByLabel(startsWith(t('billing.cardNumber'))).fill(card);
      await page.getByRole('button', { name: t('hire.pay', { amount: fee }) }).click();
      if (authenticates) {
        const step = page.getByRole('region', { name: t('billing.authTitle') });
        await step.getByRole('button', { name: t('billing.approve') }).click();
      }
      await page.waitForURL(`${BASE_URL}${language === 'fr' ? '/fr' : ''}/hired-successfully`);
      await heading(page, t('pages.hiredSuccessfully'));

      // The hired professional now reads the street address.
      await proPage.goto(`${BASE_URL}/professional-active-requests`);
      await heading(proPage, t('pages.professionalActiveRequests'));
      await proPage.getByText(new RegExp(STREET)).first().waitFor();

      // The customer's request page shows the job first: the professional, a tap to call
      // them, their conversation and profile; its back link leads to the active requests.
      await page.goto(`${BASE_URL}/user-view-request/${requestId}`);
      const job = page.getByRole('region', { name: t('requests.job.title') });
      await job.getByText(proName, { exact: true }).waitFor({ timeout: 15_000 });
      assert.match(
        (await job.locator('a[href^="tel:"]').getAttribute('href')) ?? '',
        /^tel:\+1\d{10}$/,
      );
      await job
        .getByRole('link', { name: t('conversations.withName', { name: proName }) })
        .waitFor();
      await job.getByRole('link', { name: t('jobs.viewProfile') }).waitFor();
      await page.getByRole('link', { name: t('requests.backToActive') }).click();

      // The customer marks the job completed, confirming in a dialog that names the amount
      // held on the card and the professional: the hold is captured.
      await heading(page, t('pages.userActiveRequests'));
      const complete = page.getByRole('button', {
        name: t('requests.markCompletedFor', { name: proName }),
      });
      await complete.waitFor();
      await shot(page, `active-requests-${language}`);
      await complete.click();
      const confirm = page.getByRole('alertdialog', { name: t('requests.completeQuestion') });
      const charge = t('requests.completeCharge', { amount: fee, name: proName });
      await confirm.getByText(charge).waitFor();
      const said = (await confirm.textContent()) ?? '';
      assert.ok(said.includes(fee) && said.includes(proName), `the dialog says: ${said}`);
      await confirm.getByRole('button', { name: t('requests.markCompleted'), exact: true }).click();
      await page.getByText(t('requests.markedDone')).first().waitFor();
      await page.goto(`${BASE_URL}/user-order-history`);
      await heading(page, t('pages.userOrderHistory'));
      const order = page.getByRole('row').filter({ hasText: proName });
      await order.getByText(t('checkout.states.captured'), { exact: true }).waitFor();

      // The customer's receipt, and the professional's share of the payment (no platform fee
      // in this stack).
      const [, receiptNumber, receiptPro, charged] = await waitForMessage(
        'email.jsonl',
        casey.email,
        /Receipt number: (\S+)\nService: Plumbing Services\nProfessional: (.+)\nAmount charged: (.+)\n/,
      );
      assert.match(receiptNumber, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.deepEqual([receiptPro, charged], [proName, '$45.00']);
      const share =
        language === 'fr'
          ? /Montant du travail\u00a0: (.+)\nFrais de plateforme\u00a0: (.+)\nVotre versement\u00a0: (.+)\n/
          : /Job amount: (.+)\nPlatform fee: (.+)\nYour payout: (.+)\n/;
      const [, amount, platformFee, payout] = await waitForMessage('email.jsonl', pro.email, share);
      const zero = language === 'fr' ? '0,00\u00a0$' : '$0.00';
      assert.deepEqual([amount, platformFee, payout], [fee, zero, fee]);

      // The review, then the public profile's rating.
      await page.goto(`${BASE_URL}/submit-review/${pro.id}/${requestId}`);
      await heading(page, t('pages.submitReview'));
      // The radio's drawn control covers the input: a person clicks the label.
      await page.getByText(t('jobs.review.stars.5'), { exact: true }).click();
      assert.equal(
        await page.getByRole('radio', { name: t('jobs.review.stars.5') }).isChecked(),
        true,
      );
      await page.getByLabel(t('jobs.review.text')).fill('Came within the hour and fixed it.');
      await page.getByRole('button', { name: t('jobs.review.submit') }).click();
      await page.getByText(t('jobs.review.sent')).first().waitFor();
      await page.goto(`${BASE_URL}/view-professional/${pro.id}`);
      await heading(page, proName);
      const rated = t('ratings.ratedFrom', { rating: '5', count: 1, reviews: '1' });
      await page.getByRole('img', { name: rated }).first().waitFor();
      await page.getByText('Came within the hour and fixed it.').waitFor();

      // The admin sees the order, captured already.
      const adminPage = adminBrowser.page;
      await signedIn(adminPage, {
        admin_token: admin.admin_token,
        admin_name: admin.admin_name,
        lang: language,
      });
      await adminPage.goto(`${BASE_URL}/admin/order-history`);
      await heading(adminPage, t('pages.adminOrderHistory'));
      const adminRow = adminPage.getByRole('row').filter({ hasText: proName });
      await adminRow.getByText(t('adminOrders.capturedAlready')).waitFor();
      assert.match(await adminRow.textContent(), new RegExp(`Casey Hirer ${suffix}`));
    });
  }
});
