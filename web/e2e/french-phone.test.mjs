// End-to-end: the whole journey of a Quebecer, in French on a phone (390 x 844, a browser set
// to fr-CA), against the running stack, in two browsers. The customer comes to /fr, taps
// "Demander une réparation", signs in on the French page, places a plumbing request in
// Calgary with two photos and keeps its page open. A member professional in Calgary whose
// account is French is emailed the request ("Photos des dégâts : 2", its distance in French),
// signs in on the French page, opens the request from the email's link, writes to the
// customer and sends a quote; the customer's page shows the message, and counts the quote in
// its "Soumissions reçues", within 2 s, without a reload. The customer reads the quote, hires
// with the test card 4242 4242 4242 4242 and reads that the amount is held ("réservé"), not
// paid.
// At every page of the walk, the page must show a French reader no English (no text of the
// English catalogue that differs in French, no English service name, no English word), stay
// under /fr with every link of the app leading under /fr, show no "€", and have no target
// under 44 x 44 px (links in running text aside). Each problem is named with its step, its
// page and its element; the story walks on and fails at the end with all of them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { screenLoaded } from './axe.mjs';
import { BASE_URL, heading, openBrowser, quiet } from './browser.mjs';
import { englishTexts, frenchReaderProblems, isFrench, problemReport } from './french-reader.mjs';
import { startsWith, translator } from './i18n.mjs';
import { png } from './images.mjs';
import { shot, waitForMessage } from './stack.mjs';
import { adminSession, CALGARY, customer, memberProfessional, PASSWORD } from './test-accounts.mjs';

/** A phone held upright (an iPhone 14's CSS pixels), its browser set to Canadian French. */
const PHONE = { viewport: { width: 390, height: 844 }, locale: 'fr-CA' };

/** How soon the customer's open request page must show a new message or count a quote. */
const LIVE_WITHIN_MS = 2000;

/** Two photos of the damage, as a phone would send them. */
const PHOTOS = [
  { name: 'evier.png', mimeType: 'image/png', buffer: png(320, 240, (x) => [200, x % 256, 40]) },
  { name: 'tuyau.png', mimeType: 'image/png', buffer: png(240, 320, (_, y) => [20, 90, y % 256]) },
];

/** Marks the document: a reload (or a page load) loses the mark. */
const markDocument = (page) =>
  page.evaluate(() => {
    globalThis.sameDocument = true;
  });
const sameDocument = (page) => page.evaluate(() => globalThis.sameDocument === true);

/**
 * Waits for `locator` to show, timed from now; when it takes longer than LIVE_WITHIN_MS,
 * calls `late` with the verdict ("shown after 3.4 s, not within 2 s", or "not shown within
 * 12.0 s" when it never showed) and goes on.
 */
async function shownLive(locator, late) {
  const start = Date.now();
  // Only a timeout means "not shown": any other error (two matches, a closed page) is the
  // test's own and says so.
  const within = (timeout) =>
    locator.waitFor({ timeout }).then(
      () => true,
      (error) => {
        if (error?.name === 'TimeoutError') return false;
        throw error;
      },
    );
  if (await within(LIVE_WITHIN_MS)) return;
  const later = await within(10_000);
  const seconds = ((Date.now() - start) / 1000).toFixed(1);
  late(
    later
      ? `shown after ${seconds} s, not within ${LIVE_WITHIN_MS / 1000} s`
      : `not shown within ${seconds} s`,
  );
}

describe('a Quebecer’s request, quote and hire, in French on a phone', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>[]} */
  let browsers = [];

  before(async () => {
    browsers = await Promise.all([openBrowser(PHONE), openBrowser(PHONE)]);
  });

  after(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
  });

  it('from /fr to the hire: French only, no €, 44 px targets, live counts, photos counted', async () => {
    const t = await translator('fr');
    const english = await englishTexts();
    const [customerBrowser, proBrowser] = browsers;
    const admin = await adminSession();
    const customerName = 'Camille Gagnon';
    const proName = 'Quentin Tremblay';
    const [camille, pro] = await Promise.all([
      customer(customerName, { verify: true }),
      memberProfessional(proName, CALGARY, admin, { lang: 'fr' }),
    ]);

    /** Every problem a French reader meets on the way, with its step and its page. */
    const problems = [];
    /** A problem met at `where` (a step of the story and its page). */
    const met = (where, what) => problems.push({ where, what });
    /**
     * The addresses each page went through since its last check (redirects and moves within
     * the app included).
     */
    const passed = new Map(browsers.map(({ page }) => [page, []]));
    for (const { page } of browsers) {
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) passed.get(page)?.push(new URL(frame.url()));
      });
    }
    /** The whole pages checked, each a step of the story and its page. */
    const checked = [];
    /**
     * Checks the page as `step` reached it (only the element `within` selects, when given):
     * French all the way, no €, 44 px targets.
     */
    const check = async (page, step, within) => {
      await screenLoaded(page);
      await quiet(page);
      const where = `${step} (${new URL(page.url()).pathname})`;
      if (!within) checked.push(where);
      for (const address of passed.get(page)?.splice(0) ?? []) {
        const { origin, pathname } = address;
        if (origin !== new URL(BASE_URL).origin || isFrench(pathname)) {
          continue;
        }
        met(where, `the way here went through the English page ${pathname}`);
      }
      problems.push(...(await frenchReaderProblems(page, step, english, { within })));
    };
    /** Checks `step` with the area's menu open (a phone shows it in a drawer). */
    const checkMenu = async (page, step) => {
      await page.getByRole('button', { name: new RegExp(`^${t('areas.openMenu')}`) }).click();
      const drawer = page.getByRole('dialog');
      await drawer.waitFor();
      await check(page, `${step}, the menu open`, '[role="dialog"]');
      await drawer.getByRole('button', { name: t('areas.closeMenu') }).click();
      await drawer.waitFor({ state: 'detached' });
    };
    const report = () => problemReport(problems, checked);
    /** Says so, at `step`, when the page does not tell a hold ("réservé") or calls it paid. */
    const saysHeld = async (page, step) => {
      const where = `${step} (${new URL(page.url()).pathname})`;
      const said = await page.evaluate(() => globalThis.document.body.innerText);
      const paid = /(?<!\p{L})pay(é|ée|és|ées)(?!\p{L})/iu.exec(said);
      if (paid) met(where, `the page says "${paid[0]}": the amount is held (réservé), not paid`);
      if (!/réserv/i.test(said)) met(where, 'the page does not say that the amount is réservé');
    };

    try {
      // The customer lands on /fr and asks for a repair.
      const page = customerBrowser.page;
      await page.goto(`${BASE_URL}/fr`);
      await heading(page, t('home.banner_h1'));
      await check(page, 'customer: the landing page');
      await shot(page, 'fr-phone-landing');
      await page
        .getByRole('link', { name: t('home.banner_link') })
        .first()
        .click();

      // Signed out, the request form asks them to sign in first: the French sign-in page.
      await heading(page, t('pages.login'));
      await check(page, 'customer: the sign-in page on the way to the request form');
      await page.getByLabel(startsWith(t('forms.email'))).fill(camille.email);
      await page.getByLabel(startsWith(t('forms.password'))).fill(PASSWORD);
      await page.getByRole('button', { name: t('auth.logIn'), exact: true }).click();

      // Signed in, back on the request form, which they fill with two photos.
      await heading(page, t('pages.createRequest'));
      await check(page, 'customer: the request form');
      await page.getByText('Services de plomberie', { exact: true }).click();
      const words = 'Le tuyau sous l’évier de la cuisine a éclaté; il y a de l’eau partout.';
      await page.getByLabel(startsWith(t('requests.description'))).fill(words);
      await page.getByText(t('requests.urgencyImmediate'), { exact: true }).click();
      await page.getByLabel(startsWith(t('requests.line1'))).fill('225 7 Ave SW');
      await page.getByLabel(startsWith(t('requests.city'))).fill('Calgary');
      await page.getByLabel(startsWith(t('requests.province'))).selectOption('AB');
      await page.getByLabel(startsWith(t('requests.postalCode'))).fill('T2P 2W3');
      await page.getByLabel(t('photos.choose'), { exact: true }).setInputFiles(PHOTOS);
      const chosen = page.getByRole('list', { name: t('photos.chosen') });
      await chosen.getByRole('listitem').nth(1).waitFor();
      assert.equal(await chosen.getByRole('listitem').count(), 2);
      await check(page, 'customer: the request form filled, two photos chosen');
      await shot(page, 'fr-phone-create-request');
      await page.getByRole('button', { name: t('requests.create') }).click();
      await page.waitForURL(`${BASE_URL}/fr/request-created`, { timeout: 60_000 });
      await heading(page, t('pages.requestCreated'));
      await check(page, 'customer: the request placed');
      const viewLink = page.getByRole('link', { name: t('requests.viewCreated') });
      const requestId = (await viewLink.getAttribute('href'))?.split('/').at(-1) ?? '';
      assert.match(requestId, /^[0-9a-f-]{36}$/);

      // They open the request's page and keep it open.
      await viewLink.click();
      await page.waitForURL(`${BASE_URL}/fr/user-view-request/${requestId}`);
      await heading(page, t('pages.userViewRequest'));
      await check(page, 'customer: the request page');
      await checkMenu(page, 'customer: the request page');
      await shot(page, 'fr-phone-user-view-request');
      // Its facts count the quotes received: none yet.
      const quotesReceived = (on, count) =>
        on
          .locator('dt')
          .filter({ hasText: new RegExp(`^${t('requests.applications')}$`) })
          .locator('xpath=following-sibling::dd[1]')
          .filter({ hasText: new RegExp(`^${count}$`) });
      await quotesReceived(page, '0').waitFor();
      await markDocument(page);

      // The professional's email: in French, the two photos counted, the distance in French.
      const [email] = await waitForMessage(
        'email.jsonl',
        pro.email,
        new RegExp(`^[\\s\\S]*/view-request/${requestId}[\\s\\S]*$`),
        150_000,
      );
      const inEmail = `professional: the new-request email (${JSON.stringify(email)})`;
      const photosLine = /Photos des dégâts\u00a0: ([^\n]*)/.exec(email)?.[1];
      if (photosLine !== '2.') {
        met(inEmail, `the email says "Photos des dégâts : ${photosLine}", not "2."`);
      }
      if (!/ à (moins de 1|environ \d+|\d+)\u00a0km de chez vous\./.test(email)) {
        met(inEmail, 'the email gives no distance "à moins de 1 km" or "à N km"');
      }
      if (email.includes('€')) met(inEmail, '"€" in the email');
      const link = /https?:\/\/\S+\/view-request\/[0-9a-f-]{36}/.exec(email)?.[0] ?? '';
      assert.ok(link !== '', `no link to the request in the email: ${email}`);
      // A French reader's links open the French page.
      if (!isFrench(new URL(link).pathname)) met(inEmail, `the email links to ${link}`);

      // The professional signs in on the French page, then opens the email's link.
      const pp = proBrowser.page;
      await pp.goto(`${BASE_URL}/fr/login-as-professional`);
      await heading(pp, t('pages.loginAsProfessional'));
      await check(pp, 'professional: the sign-in page');
      await pp.getByLabel(startsWith(t('forms.email'))).fill(pro.email);
      await pp.getByLabel(startsWith(t('forms.password'))).fill(PASSWORD);
      await pp.getByRole('button', { name: t('auth.logIn'), exact: true }).click();
      await pp.waitForURL((url) => !url.pathname.endsWith('/login-as-professional'));
      await check(pp, 'professional: the first page after signing in');
      await checkMenu(pp, 'professional: the first page after signing in');
      await pp.goto(link);
      await pp.waitForURL(`${BASE_URL}/fr/view-request/${requestId}`);
      await heading(pp, 'Services de plomberie');
      await pp.getByText(words).waitFor();
      await pp.locator('[data-live="live"]').waitFor({ timeout: 15_000 });
      await check(pp, 'professional: the request opened from the email');
      await shot(pp, 'fr-phone-view-request');

      // The professional writes to the customer: the customer's open page shows it.
      const proThread = pp.getByRole('region', {
        name: t('conversations.messagesOf', { title: t('conversations.withCustomer') }),
      });
      const message = 'Bonjour! Le robinet d’arrêt sous l’évier est-il facile d’accès?';
      await pp.getByLabel(t('conversations.write')).fill(message);
      await pp.getByRole('button', { name: t('conversations.send') }).click();
      await proThread.getByText(message).waitFor();
      const openPage = `customer: the request page kept open (/fr/user-view-request/${requestId})`;
      // The message shows in the conversation's preview line and in its thread: either counts.
      await shownLive(page.locator('#messages').getByText(message).first(), (verdict) =>
        met(openPage, `the professional's new message: ${verdict}`),
      );
      assert.equal(await sameDocument(page), true, 'the customer’s request page was reloaded');
      await check(page, 'customer: the request page with the professional’s message');
      await check(pp, 'professional: the request page after writing');

      // The professional quotes: the customer's open page counts it.
      await pp.getByRole('link', { name: t('requests.open.quote'), exact: true }).click();
      await pp.waitForURL(`${BASE_URL}/fr/request-apply/${requestId}`);
      await heading(pp, t('pages.requestApply'));
      await check(pp, 'professional: the quote form');
      await pp.getByLabel(startsWith(t('quoteForm.hours'))).fill('2');
      await pp.getByLabel(startsWith(t('trip.form.arrival'))).fill('40');
      await pp.getByLabel(startsWith(t('quoteForm.fee'))).fill('45');
      await pp.getByRole('button', { name: t('quoteForm.send') }).click();
      await pp.getByText(t('quoteForm.sent')).first().waitFor();
      await check(pp, 'professional: the quote sent');
      await shownLive(quotesReceived(page, '1'), (verdict) =>
        met(openPage, `"${t('requests.applications')}" reading 1 after the quote: ${verdict}`),
      );
      assert.equal(await sameDocument(page), true, 'the customer’s request page was reloaded');
      await check(page, 'customer: the request page with the quote');
      await shot(page, 'fr-phone-user-view-request-live');

      // The customer hires with the test card: the amount is held, not paid.
      await page.getByRole('link', { name: t('requests.viewApplications') }).click();
      await page.waitForURL(`${BASE_URL}/fr/application-list/${requestId}`);
      await heading(page, t('pages.applicationList'));
      const quoteLink = page.getByRole('link', { name: t('jobs.viewQuoteOf', { name: proName }) });
      await quoteLink.waitFor({ timeout: 15_000 });
      await check(page, 'customer: the quotes received');

      // They read the quote, then hire from it.
      await quoteLink.click();
      await heading(page, t('pages.viewApplication'));
      await page.getByRole('heading', { level: 2, name: proName }).waitFor();
      await check(page, 'customer: the quote');
      await page.getByRole('link', { name: t('jobs.hireName', { name: proName }) }).click();
      await heading(page, t('pages.hire'));
      const fee = '45,00\u00a0$';
      await page.getByTestId('total').getByText(fee).waitFor();
      await page.getByText(t('hire.holdNote')).waitFor();
      await check(page, 'customer: the hire page');
      await saysHeld(page, 'customer: the hire page');
      // The button that hires says what it does: it holds the amount.
      const hire = page.getByRole('button', { name: t('hire.pay', { amount: fee }) });
      const hireSays = ((await hire.textContent()) ?? '').replace(/\s+/g, ' ').trim();
      if (!hireSays.startsWith('Réserver ')) {
        met(
          `customer: the hire page (${new URL(page.url()).pathname})`,
          `the button that hires says "${hireSays}", not "Réserver …"`,
        );
      }
      await shot(page, 'fr-phone-hire');
      await page.getByLabel(startsWith(t('billing.cardNumber'))).fill('4242 4242 4242 4242');
      await hire.click();
      await page.waitForURL(`${BASE_URL}/fr/hired-successfully`, { timeout: 30_000 });
      await heading(page, t('pages.hiredSuccessfully'));
      await page.getByText(t('hire.done')).waitFor();
      await check(page, 'customer: hired');
      await saysHeld(page, 'customer: hired');
      await shot(page, 'fr-phone-hired');
    } catch (error) {
      if (error instanceof Error && problems.length > 0) error.message += `\n\n${report()}`;
      throw error;
    }
    assert.ok(problems.length === 0, report());
  });
});
