// End-to-end: the membership story against the whole running stack, on the server's offline
// test gateway. An admin creates a 20 % coupon; a professional reading French applies it
// (23,99 $ instead of 29,99 $), is declined with 4000 0000 0000 0002 and stays inactive, then
// pays with 4242 4242 4242 4242 and is active; the admin deletes the coupon. With
// E2E_SHOTS_DIR set, the purchase page is saved as screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, heading, openBrowser, signedIn } from './browser.mjs';
import { RUN, shot } from './stack.mjs';
import { adminSession, professional } from './test-accounts.mjs';

/** What fr-CA's Intl writes for Canadian dollars: a decimal comma and a no-break space before $. */
const dollars = (text) => `${text}\u00a0$`;

/** The total of the purchase page, once it reads `expected`. */
async function totalIs(page, expected) {
  const total = page.getByTestId('total');
  await page.waitForFunction(
    ({ want }) => globalThis.document.querySelector('[data-testid="total"]')?.textContent === want,
    { want: expected },
    { timeout: 10_000 },
  );
  assert.equal(await total.textContent(), expected);
}

async function applyCoupon(page, code) {
  await page.getByRole('button', { name: 'Vous avez un coupon?' }).click();
  await page.getByLabel('Code du coupon').fill(code);
  await page.getByRole('button', { name: 'Appliquer' }).click();
  await totalIs(page, dollars('23,99'));
}

async function payWith(page, card) {
  await page.getByLabel(/^Numéro de carte/).fill(card);
  await page.getByRole('button', { name: /^Payer / }).click();
}

describe('billing', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let adminBrowser;
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let proBrowser;

  before(async () => {
    [adminBrowser, proBrowser] = await Promise.all([openBrowser(), openBrowser()]);
  });

  after(async () => {
    await Promise.all([adminBrowser?.close(), proBrowser?.close()]);
  });

  it('a professional in French buys a month with a 20 % coupon after a declined card', async () => {
    const admin = await adminSession();
    const pro = await professional('Frédérique Pro', {
      verify: true,
      approveWith: admin.admin_token,
      lang: 'fr',
    });
    const code = `E2E-${RUN}`.toUpperCase();

    // The admin creates the coupon.
    const adminPage = adminBrowser.page;
    await signedIn(adminPage, { admin_token: admin.admin_token, admin_name: admin.admin_name });
    await adminPage.goto(`${BASE_URL}/admin/create-coupon`);
    await heading(adminPage, 'Create coupon');
    await adminPage.getByLabel(/^Code/).fill(code.toLowerCase());
    await adminPage.getByLabel(/^Discount in percent/).fill('20');
    await adminPage.getByRole('button', { name: 'Create coupon' }).click();
    await adminPage.waitForURL(`${BASE_URL}/admin/coupon-list`);
    const row = adminPage.getByRole('row').filter({ hasText: code });
    await row.waitFor();
    assert.match(await row.textContent(), /20%.*0 \/ no limit.*Never/);

    // The professional, reading French, sees the price and applies the coupon.
    const page = proBrowser.page;
    await signedIn(page, { ...pro.storage, lang: 'fr' });
    // Opened without /fr, the page goes to its French twin.
    await page.goto(`${BASE_URL}/purchase-membership/${pro.id}`);
    await page.waitForURL(`${BASE_URL}/fr/purchase-membership/${pro.id}`);
    await heading(page, 'Acheter un abonnement');
    await totalIs(page, dollars('29,99'));
    await page.getByText('MODE TEST', { exact: true }).waitFor();
    await applyCoupon(page, code.toLowerCase());
    await page.getByText(`Coupon ${code}\u00a0: 20\u00a0% de rabais`).waitFor();
    await shot(page, 'purchase-membership-fr');

    // A declined card: the reason in French, and the membership still inactive.
    await payWith(page, '4000 0000 0000 0002');
    await page
      .getByText(
        'Votre carte a été refusée. Essayez une autre carte ou communiquez avec votre banque.',
      )
      .waitFor();
    await shot(page, 'purchase-membership-declined-fr');
    assert.equal(new URL(page.url()).pathname, `/fr/purchase-membership/${pro.id}`);
    await page.goto(`${BASE_URL}/professional-dashboard`);
    await heading(page, 'Tableau de bord');
    await page.getByText('Votre abonnement est inactif').waitFor();
    await page.getByRole('link', { name: 'Acheter l’abonnement' }).click();
    await page.waitForURL(`${BASE_URL}/fr/purchase-membership/${pro.id}`);

    // A good card: the dashboard, the notice gone and the end of the month shown.
    await totalIs(page, dollars('29,99'));
    await applyCoupon(page, code);
    await payWith(page, '4242 4242 4242 4242');
    await page.waitForURL(`${BASE_URL}/fr/professional-dashboard`);
    await page.getByText('Paiement réussi! Abonnement activé.').first().waitFor();
    await page.getByText(/^Votre abonnement est actif jusqu’au /).waitFor();
    assert.equal(await page.getByText('Votre abonnement est inactif').count(), 0);

    // The coupon was used once (the declined try gave its use back); the admin deletes it.
    await adminPage.reload();
    await row.waitFor();
    assert.match(await row.textContent(), /1 \/ no limit/);
    await row.getByRole('button', { name: `Delete coupon ${code}` }).click();
    const dialog = adminPage.getByRole('alertdialog', {
      name: 'Are you sure you want to delete this coupon?',
    });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    await adminPage.reload();
    await heading(adminPage, 'Coupon list');
    await adminPage.getByRole('link', { name: 'Create coupon' }).first().waitFor();
    assert.equal(await adminPage.getByRole('row').filter({ hasText: code }).count(), 0);
  });
});
