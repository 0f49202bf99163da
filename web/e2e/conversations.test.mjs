// End-to-end: photos of the damage and a conversation before the hire, against the whole
// running stack, once in English and once in French.
// The story: a customer posts a request with two photos through /create-request, the upload
// slowed down so that each photo's progress bar shows; a member professional in Calgary sees
// the thumbnails in the open-requests list, opens one large (arrow keys, Escape) and asks a
// question on the request's page, giving a phone number; the customer, on a phone-sized
// window, sees the unread count on the Menu button and the dashboard, opens the conversation
// (read: the count goes), reads the question with the number masked (a note says why) and
// answers with a photo; the professional's page shows the answer and its photo live; the
// customer writes again and the professional's counts move the same way; the professional
// quotes and the customer's quote list shows it.
// Then the safety side, in English: the professional reports the conversation, the admin
// reads it in the queue of reported conversations and resolves it with a note; the customer
// blocks the professional, who can then neither write nor quote, and unblocks them from My
// profile.
// Every text is read from the app's own catalogues in the run's language. With
// E2E_SHOTS_DIR set, the screens are saved at both window sizes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertAccessible, transitionsEnded } from './axe.mjs';
import { BASE_URL, chooseMoreAction, heading, openBrowser, signedIn } from './browser.mjs';
import { startsWith, translator } from './i18n.mjs';
import { loadedImage, png } from './images.mjs';
import { shot } from './stack.mjs';
import { targetProblems } from './target-check.mjs';
import {
  adminSession,
  CALGARY,
  customer,
  memberProfessional,
  placeRequest,
} from './test-accounts.mjs';

const PHONE = { width: 390, height: 844 };

/** Bytes a second the customer's browser uploads at while the photos go. */
const SLOW_UPLOAD = 256 * 1024;

/**
 * A photo as a phone might send it: a gradient from `rgb` with a band of noise at the bottom,
 * which does not compress (so that its upload takes a while).
 */
const photo = (width, height, [r, g, b]) =>
  png(width, height, (x, y) =>
    y >= height * 0.6 ? [...randomBytes(3)] : [(r + (y * 255) / height) & 0xff, (g + x) & 0xff, b],
  );

/** The region of a conversation's messages, by the thread's title. */
const thread = (page, t, title) =>
  page.getByRole('region', { name: t('conversations.messagesOf', { title }) });

/** Writes `text` in the composer of the page and sends it; waits until it shows. */
async function send(page, t, region, text) {
  await page.getByLabel(t('conversations.write')).fill(text);
  await page.getByRole('button', { name: t('conversations.send') }).click();
  await region.getByText(text).waitFor();
}

/**
 * Fails naming the targets under 44 x 44 px on the phone's page once `opened` resolves (a
 * menu, a drawer shown) and its transitions ended.
 */
async function fingerSized(page, language, what, opened) {
  await opened();
  await transitionsEnded(page);
  const small = await targetProblems(page, {
    path: what,
    shown: page.url(),
    language,
    size: PHONE,
  });
  assert.deepEqual(small, [], small.join('\n'));
}

/** Each run's language; a French reader's pages are under /fr (`prefix`). */
const RUNS = [
  { language: 'en', prefix: '', suffix: 'English', service: 'Plumbing Services' },
  { language: 'fr', prefix: '/fr', suffix: 'Français', service: 'Services de plomberie' },
];

describe('photos of the damage and a conversation before the hire', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>[]} */
  let browsers = [];

  before(async () => {
    browsers = await Promise.all([
      openBrowser(),
      openBrowser(),
      openBrowser({ viewport: PHONE }),
      openBrowser(),
    ]);
  });

  after(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
  });

  for (const { language, prefix, suffix, service } of RUNS) {
    it(`in ${language}: two photos, a question, an answer from a phone, the counts, a quote`, async () => {
      const t = await translator(language);
      const [desktop, proBrowser, phone] = browsers;
      const admin = await adminSession();
      const proName = `Quinn Question ${suffix}`;
      const [casey, pro] = await Promise.all([
        customer(`Casey Photos ${suffix}`, { verify: true }),
        memberProfessional(proName, CALGARY, admin, { lang: language }),
      ]);
      const unreadOne = t('conversations.unreadCount', { count: 1 });

      // The customer fills the request and chooses two photos, on a desktop.
      const page = desktop.page;
      await signedIn(page, { ...casey.storage, lang: language });
      await page.goto(`${BASE_URL}/create-request`);
      await heading(page, t('pages.createRequest'));
      await page.getByText(service, { exact: true }).click();
      await page
        .getByLabel(startsWith(t('requests.description')))
        .fill('The pipe under the kitchen sink burst; water everywhere.');
      await page.getByText(t('requests.urgencyImmediate'), { exact: true }).click();
      await page.getByLabel(startsWith(t('requests.line1'))).fill('225 7 Ave SW');
      await page.getByLabel(startsWith(t('requests.city'))).fill('Calgary');
      await page.getByLabel(startsWith(t('requests.province'))).selectOption('AB');
      await page.getByLabel(startsWith(t('requests.postalCode'))).fill('T2P 2W3');
      await page.getByLabel(t('photos.choose'), { exact: true }).setInputFiles([
        { name: 'sink.png', mimeType: 'image/png', buffer: photo(640, 480, [200, 40, 40]) },
        { name: 'pipe.png', mimeType: 'image/png', buffer: photo(480, 640, [20, 90, 200]) },
      ]);
      const chosen = page.getByRole('list', { name: t('photos.chosen') });
      await chosen.getByText(t('photos.waitingForRequest')).first().waitFor();
      assert.equal(await chosen.getByRole('listitem').count(), 2);
      await shot(page, `create-request-photos-${language}`);
      await assertAccessible(page, `the request form with two photos (${language})`);

      // Placed, the photos go one by one, each with its progress bar (the upload slowed).
      const network = await page.context().newCDPSession(page);
      await network.send('Network.enable');
      await network.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: SLOW_UPLOAD,
      });
      await page.getByRole('button', { name: t('requests.create') }).click();
      const progress = page.getByRole('progressbar', {
        name: t('photos.progressOf', {
          name: t('photos.chosenName', { number: 1, name: 'sink.png' }),
        }),
      });
      await progress.waitFor({ timeout: 15_000 });
      await page.getByText(t('requests.created')).waitFor();
      await shot(page, `create-request-progress-${language}`);
      await assertAccessible(page, `the photos on their way (${language})`);
      await network.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await page.waitForURL(`${BASE_URL}${prefix}/request-created`, { timeout: 60_000 });
      const viewLink = await page
        .getByRole('link', { name: t('requests.viewCreated') })
        .getAttribute('href');
      const requestId = viewLink?.split('/').at(-1) ?? '';
      assert.match(requestId, /^[0-9a-f-]{36}$/);

      // Its page shows the two photos, their thumbnails served.
      await page.goto(`${BASE_URL}/user-view-request/${requestId}`);
      await heading(page, t('pages.userViewRequest'));
      const own = page.getByRole('list', { name: t('photos.damage') });
      await own.getByRole('img').nth(1).waitFor();
      assert.equal(await own.getByRole('img').count(), 2);
      await loadedImage(own.getByRole('img').first());
      // Then the desktop moves on: the request's page, left open in view, would show the
      // professional's question within seconds and so read it, and the phone's count below
      // is of a message nobody has read yet.
      await page.goto(`${BASE_URL}/user-dashboard`);
      await heading(page, t('pages.userDashboard'));

      // The professional sees the thumbnails in the open requests and opens one large.
      const pp = proBrowser.page;
      await signedIn(pp, { ...pro.storage, lang: language });
      await pp.goto(`${BASE_URL}/request-list`);
      await heading(pp, t('pages.requestList'));
      const row = pp
        .getByRole('row')
        .filter({ has: pp.locator(`a[href="${prefix}/view-request/${requestId}"]`) });
      const firstName = t('photos.altDamage', { number: 1, count: 2 });
      const first = row.getByRole('img', { name: firstName });
      await first.waitFor({ timeout: 15_000 });
      await loadedImage(first);
      await shot(pp, `request-list-photos-${language}`);
      await assertAccessible(pp, `the open requests with thumbnails (${language})`);
      await row.getByRole('button', { name: firstName }).click();
      await pp.getByRole('dialog', { name: firstName }).waitFor();
      await pp.keyboard.press('ArrowRight');
      const second = pp.getByRole('dialog', {
        name: t('photos.altDamage', { number: 2, count: 2 }),
      });
      await second.waitFor();
      await loadedImage(second.getByRole('img'));
      // The large photo is the portrait one, written again upright: taller than wide.
      const [width, height] = await second
        .getByRole('img')
        .evaluate((image) => [image.naturalWidth, image.naturalHeight]);
      assert.ok(height > width, `the second photo is ${width} x ${height}`);
      await pp.keyboard.press('Escape');
      await second.waitFor({ state: 'detached' });
      // The focus comes back (once the dialog has let it go) on the thumbnail of the photo
      // last seen.
      await pp.waitForFunction(
        (alt) => globalThis.document.activeElement?.querySelector('img')?.alt === alt,
        t('photos.altDamage', { number: 2, count: 2 }),
        { timeout: 5_000 },
      );

      // The professional asks a question on the request's page.
      await pp.goto(`${BASE_URL}/view-request/${requestId}`);
      const proTitle = t('conversations.withCustomer');
      await pp.getByRole('heading', { level: 3, name: proTitle }).waitFor();
      await pp.locator('[data-live="live"]').waitFor({ timeout: 15_000 });
      await pp.evaluate(() => {
        globalThis.sameDocument = true;
      });
      await pp
        .getByRole('list', { name: t('photos.damage') })
        .getByRole('button', { name: firstName })
        .click();
      await pp.getByRole('dialog', { name: firstName }).waitFor();
      await shot(pp, `lightbox-${language}`);
      await assertAccessible(pp, `a photo opened large (${language})`);
      await pp.keyboard.press('Escape');
      await pp.getByRole('dialog').waitFor({ state: 'detached' });
      const proThread = thread(pp, t, proTitle);
      // Its author reads the phone number written in it; the customer will not, before hiring.
      const phoneNumber = '403 555 0199';
      const question = `Is the shut-off valve under the sink easy to reach? Or call me: ${phoneNumber}`;
      await send(pp, t, proThread, question);

      // The customer, on a phone, sees one unread message on the Menu button and the
      // dashboard, and opens the conversation from there: read, the count goes.
      const mobile = phone.page;
      await signedIn(mobile, { ...casey.storage, lang: language });
      await mobile.goto(`${BASE_URL}/user-dashboard`);
      await heading(mobile, t('pages.userDashboard'));
      await mobile
        .getByRole('button', { name: `${t('areas.openMenu')} ${unreadOne}` })
        .waitFor({ timeout: 15_000 });
      await mobile.getByText(t('conversations.unreadTotal', { count: 1 })).waitFor();
      await shot(mobile, `dashboard-unread-${language}`);
      await assertAccessible(
        mobile,
        `the customer's dashboard with a message unread (${language})`,
      );
      // The menu's rows, in its drawer, are finger-sized.
      await mobile.getByRole('button', { name: `${t('areas.openMenu')} ${unreadOne}` }).click();
      await fingerSized(mobile, language, 'the menu drawer open', () =>
        mobile.getByRole('dialog').waitFor(),
      );
      await mobile.keyboard.press('Escape');
      await mobile.getByRole('dialog').waitFor({ state: 'detached' });
      await mobile.getByRole('link', { name: new RegExp(`· ${proName}$`) }).click();
      await mobile.waitForURL(
        new RegExp(`${prefix}/user-view-request/${requestId}\\?professional=`),
      );
      const customerThread = thread(mobile, t, t('conversations.withName', { name: proName }));
      const masked = customerThread.getByRole('listitem').filter({ hasText: /shut-off valve/ });
      await masked.getByText(t('conversations.masked.customer')).waitFor();
      assert.doesNotMatch(await masked.innerText(), new RegExp(phoneNumber));
      await mobile.getByRole('button', { name: t('areas.openMenu'), exact: true }).waitFor();
      const overflow = await mobile.evaluate(
        () => globalThis.document.documentElement.scrollWidth - globalThis.innerWidth,
      );
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
      // The thread's More actions (Report, Block) are finger-sized too, open.
      const threadMenu = t('common.moreActionsOn', {
        subject: t('conversations.withName', { name: proName }),
      });
      await mobile.getByRole('button', { name: threadMenu, exact: true }).click();
      await fingerSized(mobile, language, 'the thread menu open', () =>
        mobile.getByRole('menuitem', { name: t('conversations.report.open') }).waitFor(),
      );
      await mobile.keyboard.press('Escape');
      await mobile.getByRole('menu').waitFor({ state: 'hidden' });
      // The answer goes with a photo of the valve.
      const answer = 'Yes, right behind the cabinet door. Please bring a 1/2 inch valve.';
      const composer = mobile.getByRole('form', { name: t('conversations.composer') });
      await composer
        .getByLabel(t('photos.choose'), { exact: true })
        .setInputFiles([
          { name: 'valve.png', mimeType: 'image/png', buffer: photo(320, 240, [90, 160, 60]) },
        ]);
      await composer.getByText(t('photos.sent')).waitFor({ timeout: 15_000 });
      await send(mobile, t, customerThread, answer);
      const inMessage = t('photos.altMessage', { number: 1, count: 1 });
      await loadedImage(customerThread.getByRole('img', { name: inMessage }));
      await shot(mobile, `conversation-customer-${language}`);
      await assertAccessible(mobile, `the customer's conversation on a phone (${language})`);

      // The professional's page shows the answer live, in the same document, and seen there
      // it is read: their dashboard counts nothing unread.
      await proThread.getByText(answer).waitFor({ timeout: 15_000 });
      assert.equal(await pp.evaluate(() => globalThis.sameDocument), true);
      await proThread.getByRole('button', { name: inMessage }).click();
      const valve = pp.getByRole('dialog', { name: inMessage });
      await loadedImage(valve.getByRole('img'));
      await pp.keyboard.press('Escape');
      await valve.waitFor({ state: 'detached' });
      await pp.goto(`${BASE_URL}/professional-dashboard`);
      await heading(pp, t('pages.professionalDashboard'));
      await pp.getByText(t('conversations.unreadTotal', { count: 0 })).waitFor();

      // The customer writes again while the professional is elsewhere: their counts move.
      const again = 'The water is off at the main for now.';
      await send(mobile, t, customerThread, again);
      await pp.reload();
      await heading(pp, t('pages.professionalDashboard'));
      await pp.getByText(t('conversations.unreadTotal', { count: 1 })).waitFor();
      const proMenu = pp.getByRole('navigation', { name: t('areas.professional.menuLabel') });
      const messagesLink = t('pages.professionalMessages');
      await proMenu.getByRole('link', { name: `${messagesLink} ${unreadOne}` }).waitFor();
      await shot(pp, `dashboard-unread-professional-${language}`);
      await pp.locator(`a[href="${prefix}/view-request/${requestId}#messages"]`).first().click();
      await proThread.getByText(again).waitFor();
      await proMenu.getByRole('link', { name: messagesLink, exact: true }).waitFor();
      await shot(pp, `conversation-professional-${language}`);
      await assertAccessible(pp, `the professional's conversation (${language})`);
      await pp.goto(`${BASE_URL}/professional-messages`);
      await heading(pp, t('pages.professionalMessages'));
      await pp.locator(`a[href="${prefix}/view-request/${requestId}#messages"]`).waitFor();
      await shot(pp, `messages-professional-${language}`);
      await assertAccessible(pp, `the professional's messages (${language})`);

      // The professional quotes; the customer's quote list shows it.
      await pp.goto(`${BASE_URL}/request-apply/${requestId}`);
      await heading(pp, t('pages.requestApply'));
      await pp.getByLabel(startsWith(t('quoteForm.hours'))).fill('1.5');
      await pp.getByLabel(startsWith(t('trip.form.arrival'))).fill('40');
      await pp.getByLabel(startsWith(t('quoteForm.fee'))).fill('120');
      await pp.getByRole('button', { name: t('quoteForm.send') }).click();
      await pp.getByText(t('quoteForm.sent')).first().waitFor();
      await mobile.goto(`${BASE_URL}/application-list/${requestId}`);
      await heading(mobile, t('pages.applicationList'));
      await mobile
        .getByRole('link', { name: t('jobs.hireName', { name: proName }) })
        .waitFor({ timeout: 15_000 });
    });
  }

  it('in en: reported to the admins, resolved with a note; blocked, then unblocked', async () => {
    const t = await translator('en');
    const [customerBrowser, proBrowser, , adminBrowser] = browsers;
    const admin = await adminSession();
    const proName = 'Rory Reported';
    const [casey, pro] = await Promise.all([
      customer('Casey Blocks', { verify: true }),
      memberProfessional(proName, CALGARY, admin),
    ]);
    const requestId = await placeRequest(casey, 'The dishwasher leaks onto the floor.');

    // The professional writes, then reports the conversation.
    const pp = proBrowser.page;
    await signedIn(pp, { ...pro.storage, lang: 'en' });
    await pp.goto(`${BASE_URL}/view-request/${requestId}`);
    const proTitle = t('conversations.withCustomer');
    const proThread = thread(pp, t, proTitle);
    await send(pp, t, proThread, 'Pay me in cash outside the site and I come at once.');
    await chooseMoreAction(
      pp,
      t('common.moreActionsOn', { subject: proTitle }),
      t('conversations.report.open'),
    );
    const report = pp.getByRole('alertdialog', { name: t('conversations.report.title') });
    await report.getByText(t('conversations.report.reasons.other'), { exact: true }).click();
    await report.getByRole('button', { name: t('conversations.report.send') }).click();
    await report.getByText(t('conversations.report.detailsRequired')).waitFor();
    await report
      .getByLabel(startsWith(t('conversations.report.details')))
      .fill('Testing the queue.');
    await shot(pp, 'report-dialog-en');
    await assertAccessible(pp, 'the report dialog');
    await report.getByRole('button', { name: t('conversations.report.send') }).click();
    await pp.getByText(t('conversations.report.sent')).first().waitFor();

    // The admin finds it in the queue, reads the messages and resolves it with a note.
    const ap = adminBrowser.page;
    await signedIn(ap, {
      admin_token: admin.admin_token,
      admin_name: admin.admin_name,
      lang: 'en',
    });
    await ap.goto(`${BASE_URL}/admin/reported-conversations`);
    await heading(ap, t('pages.adminReportedConversations'));
    const card = ap.getByRole('listitem').filter({ hasText: proName }).first();
    await card.getByText('Testing the queue.').waitFor();
    await card.getByRole('button', { name: t('reports.readMessages') }).click();
    await card.getByText('Pay me in cash outside the site and I come at once.').waitFor();
    await shot(ap, 'reported-conversations-en');
    await assertAccessible(ap, 'the reported conversations with one read');
    await card.getByRole('button', { name: t('reports.resolve') }).click();
    const resolve = ap.getByRole('alertdialog', { name: t('reports.resolveQuestion') });
    await resolve.getByLabel(startsWith(t('reports.note'))).fill('Warned the professional.');
    await resolve.getByRole('button', { name: t('reports.resolve') }).click();
    await ap.getByText(t('reports.resolved')).first().waitFor();
    await ap.getByText(t('reports.none')).waitFor();
    await ap.getByText(t('reports.includeResolved')).click();
    await ap.getByText('Warned the professional.').waitFor();

    // The customer blocks the professional from the conversation's More actions, told first
    // what it does; the focus comes back to the menu's button.
    const cp = customerBrowser.page;
    await signedIn(cp, { ...casey.storage, lang: 'en' });
    await cp.goto(`${BASE_URL}/user-view-request/${requestId}`);
    const customerTitle = t('conversations.withName', { name: proName });
    await thread(cp, t, customerTitle)
      .getByText('Pay me in cash outside the site and I come at once.')
      .waitFor();
    const moreActions = t('common.moreActionsOn', { subject: customerTitle });
    await chooseMoreAction(cp, moreActions, t('conversations.block.block', { name: proName }));
    const question = cp.getByRole('alertdialog', {
      name: t('conversations.block.question', { name: proName }),
    });
    await question.getByText(t('conversations.block.explain', { name: proName })).waitFor();
    await question.getByRole('button', { name: t('conversations.block.confirm') }).click();
    await cp.getByText(t('conversations.block.blockedNote', { name: proName })).waitFor();
    await question.waitFor({ state: 'detached' });
    assert.equal(
      await cp.evaluate(() => globalThis.document.activeElement?.getAttribute('aria-label')),
      moreActions,
    );

    // Blocked, the professional can neither write nor quote.
    await pp.getByLabel(t('conversations.write')).fill('Hello?');
    await pp.getByRole('button', { name: t('conversations.send') }).click();
    await pp.getByRole('alert').getByText(t('errors.reasons.PROFESSIONAL_BLOCKED')).waitFor();
    await pp.goto(`${BASE_URL}/request-apply/${requestId}`);
    await heading(pp, t('pages.requestApply'));
    await pp.getByLabel(startsWith(t('quoteForm.hours'))).fill('1');
    await pp.getByLabel(startsWith(t('trip.form.arrival'))).fill('40');
    await pp.getByLabel(startsWith(t('quoteForm.fee'))).fill('90');
    await pp.getByRole('button', { name: t('quoteForm.send') }).click();
    await pp.getByText(t('errors.reasons.PROFESSIONAL_BLOCKED')).waitFor();

    // The customer unblocks them from My profile.
    await cp.goto(`${BASE_URL}/user-account-setting`);
    await heading(cp, t('pages.userAccountSetting'));
    const blocked = cp.getByRole('region', { name: t('conversations.block.listTitle') });
    await blocked.getByText(proName, { exact: true }).waitFor();
    await shot(cp, 'blocked-professionals-en');
    await assertAccessible(cp, 'the blocked professionals');
    await blocked
      .getByRole('button', { name: t('conversations.block.unblock', { name: proName }) })
      .click();
    await blocked.getByText(t('conversations.block.noneBlocked')).waitFor();
  });
});
