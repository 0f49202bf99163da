// End-to-end: the matching story against the whole running stack. Two approved professionals
// with a verified phone, a paid membership (the offline test gateway's tok_visa through the
// legacy purchase call) and the plumbing service, available every day at every hour: one based
// in Calgary, one in Edmonton (about 280 km away), each serving 50 km around. Both keep
// /request-list open. A customer reading English places a plumbing request in Calgary: it
// appears on the Calgary professional's list without a reload, never on the Edmonton one's,
// and the Calgary professional's notification email (with the request's link) is in the email
// outbox, the Edmonton one gets none; the customer's request page counts the professionals
// alerted and, live, the one who opens it; the customer's dashboard counts it; at last the
// customer deletes it from the page's More actions, asked first. With E2E_SHOTS_DIR set, three
// screens are also saved in French.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, chooseMoreAction, heading, openBrowser, signedIn } from './browser.mjs';
import { shot, waitForMessage } from './stack.mjs';
import { adminSession, CALGARY, customer, memberProfessional } from './test-accounts.mjs';

const EDMONTON = { office_address: '10025 102A Ave NW', city: 'Edmonton', zipcode: 'T5J 2Z2' };

/** Opens the open-requests list and waits until its server stream is open. */
async function openRequestList(page, storage) {
  await signedIn(page, storage);
  await page.goto(`${BASE_URL}/request-list`);
  await heading(page, 'Open requests');
  await page.locator('[data-live="live"]').waitFor({ timeout: 15_000 });
  // Marks this document: a reload would lose the mark.
  await page.evaluate(() => {
    globalThis.sameDocument = true;
  });
}

describe('requests and matching', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>[]} */
  let browsers = [];

  before(async () => {
    browsers = await Promise.all([openBrowser(), openBrowser(), openBrowser()]);
  });

  after(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
  });

  it('a request placed in Calgary appears live for the Calgary professional only, who is emailed', async () => {
    const [customerBrowser, calgaryBrowser, edmontonBrowser] = browsers;
    const admin = await adminSession();
    const [casey, calgaryPro, edmontonPro] = await Promise.all([
      customer('Casey Requester', { verify: true }),
      memberProfessional('Cal Plumber', CALGARY, admin),
      memberProfessional('Ed Plumber', EDMONTON, admin),
    ]);

    await Promise.all([
      openRequestList(calgaryBrowser.page, calgaryPro.storage),
      openRequestList(edmontonBrowser.page, edmontonPro.storage),
    ]);

    // The customer places the request, the address through the look-up.
    const page = customerBrowser.page;
    await signedIn(page, casey.storage);
    await page.goto(`${BASE_URL}/create-request`);
    await heading(page, 'Create request');
    await page.getByText('Plumbing Services', { exact: true }).click();
    await page.getByLabel(/^What do you need to fix\?/).fill('Burst pipe under the kitchen sink.');
    await page.getByText('Yes, it is an emergency', { exact: true }).click();
    await page.getByLabel(/^Street address/).fill('225 7 Ave SW');
    const lookup = page.getByRole('combobox', { name: 'Find your postal code or city' });
    await lookup.pressSequentially('Calgar');
    await page.getByRole('option', { name: 'Calgary, AB' }).waitFor();
    await lookup.press('ArrowDown');
    await lookup.press('Enter');
    assert.equal(await page.getByLabel(/^City/).inputValue(), 'Calgary');
    assert.equal(await page.getByLabel(/^Province or territory/).inputValue(), 'AB');
    await page.getByLabel(/^Postal code/).fill('T2P 2W3');
    await shot(page, 'create-request-en');
    await page.getByRole('button', { name: 'Create Request' }).click();
    await page.waitForURL(`${BASE_URL}/request-created`);
    await page.getByText('Your Request is Successfully Created!').waitFor();
    const viewLink = await page
      .getByRole('link', { name: 'View the request' })
      .getAttribute('href');
    const requestId = viewLink?.split('/').at(-1) ?? '';
    assert.match(requestId, /^[0-9a-f-]{36}$/);

    // The Calgary professional sees it arrive, without a reload (other stories of the run may
    // have placed requests there too: this one is found by its link).
    const calgary = calgaryBrowser.page;
    const toRequest = `a[href="/view-request/${requestId}"]`;
    const arrived = calgary.getByRole('row').filter({ has: calgary.locator(toRequest) });
    await arrived.getByText('New', { exact: true }).waitFor({ timeout: 15_000 });
    assert.equal(await calgary.evaluate(() => globalThis.sameDocument), true);
    assert.equal(
      await arrived.locator(toRequest).getAttribute('aria-label'),
      'View request Plumbing Services',
    );
    await arrived.getByText(/^Calgary, AB T2P$/).waitFor();
    await arrived.getByText(/^(about \d+ km|less than 1 km)$/).waitFor();
    await shot(calgary, 'request-list-live-en');

    // The Calgary professional is emailed a link to it; the Edmonton one is not.
    const link = new RegExp(`/view-request/${requestId}`);
    await waitForMessage('email.jsonl', calgaryPro.email, link);
    const edmonton = edmontonBrowser.page;
    await edmonton.waitForTimeout(2000);
    assert.equal(await edmonton.evaluate(() => globalThis.sameDocument), true);
    assert.equal(await edmonton.locator(toRequest).count(), 0);
    await assert.rejects(waitForMessage('email.jsonl', edmontonPro.email, link, 1000));

    // The customer's request page counts the professionals alerted (other stories of the run
    // may have Calgary professionals too), and nobody opened it yet.
    await page.goto(`${BASE_URL}/user-view-request/${requestId}`);
    await page.getByText(/^\d+ professionals? alerted · 0 opened your request$/).waitFor();

    // The professional's view: where it is, without the street.
    await arrived.locator(toRequest).click();
    await heading(calgary, 'Plumbing Services');
    await calgary.getByText('Burst pipe under the kitchen sink.').waitFor();
    assert.equal(await calgary.getByText(/225 7 Ave SW/).count(), 0);
    await calgary.getByRole('link', { name: 'Quote', exact: true }).waitFor();

    // Their opening it reaches the customer's page without a reload.
    await page
      .getByText(/^\d+ professionals? alerted · 1 opened your request$/)
      .waitFor({ timeout: 15_000 });

    // The customer's dashboard counts it and lists it as pending.
    await page.goto(`${BASE_URL}/user-dashboard`);
    await heading(page, 'Dashboard');
    await page.locator(`a[href="/user-view-request/${requestId}"]`).waitFor();
    const posted = page.locator('dt', { hasText: 'Total Requests Posted' });
    assert.equal(await posted.locator('xpath=following-sibling::dd').textContent(), '1');

    // Two screens in French, for a look.
    for (const [browserPage, path, title, text, name] of [
      [
        page,
        `/user-view-request/${requestId}`,
        'Détails de la demande',
        'Burst pipe under the kitchen sink.',
        'user-view-request-fr',
      ],
      [calgary, '/request-list', 'Demandes ouvertes', 'Services de plomberie', 'request-list-fr'],
    ]) {
      await browserPage.evaluate(() => localStorage.setItem('lang', 'fr'));
      await browserPage.goto(`${BASE_URL}${path}`);
      await heading(browserPage, title);
      await browserPage.getByText(text).first().waitFor();
      await shot(browserPage, name);
    }
    await page.getByText(/^\d+ professionnels? alertés? · 1 a ouvert votre demande$/).waitFor();

    // The customer deletes it from the page's More actions, told first what that does.
    await chooseMoreAction(page, 'Plus d’actions', 'Supprimer la demande');
    const question = page.getByRole('alertdialog', {
      name: 'Voulez-vous supprimer cette demande?',
    });
    await question.getByText(/^La demande est fermée\u00a0: les professionnels/).waitFor();
    await shot(page, 'delete-request-question-fr');
    await question.getByRole('button', { name: 'Supprimer', exact: true }).click();
    await page.waitForURL(/\/pending-requests$/);
    await heading(page, 'Demandes en attente');
    await page.getByText('Supprimée avec succès').first().waitFor();
    assert.equal(await page.locator(`a[href$="/user-view-request/${requestId}"]`).count(), 0);
  });
});
