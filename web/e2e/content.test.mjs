// End-to-end: the admin's content screens against the whole running stack, each change read
// back where visitors see it. The French home banner changed on /admin/frhome shows on /fr and
// not on /, which keeps its English text; emptied again, /fr goes back to the built-in text.
// The admin works in English; texts are read from the app's catalogues.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, heading, openBrowser, signedIn } from './browser.mjs';
import { startsWith, translator } from './i18n.mjs';
import { RUN } from './stack.mjs';
import { adminSession } from './test-accounts.mjs';

/** The stored-language localStorage entry: / shows English, /fr French. */
const inLanguage = (language) => ({ lang: language });

/**
 * Opens a landing page and waits until the server's texts for it have arrived and settled
 * (until then the page shows the built-in ones).
 */
async function openLanding(page, path) {
  const texts = page.waitForResponse((response) =>
    response.url().endsWith('/repairs.content.v1.ContentService/GetHomePage'),
  );
  await page.goto(`${BASE_URL}${path}`);
  await texts;
  await page.waitForLoadState('networkidle');
}

describe('the content screens', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>[]} */
  let browsers = [];
  /** The texts in English (also the admin's language), then in French. */
  let en;
  let fr;

  before(async () => {
    browsers = await Promise.all([openBrowser(), openBrowser()]);
    const { admin_token, admin_name } = await adminSession();
    await signedIn(browsers[0].page, { admin_token, admin_name, lang: 'en' });
    [en, fr] = await Promise.all([translator('en'), translator('fr')]);
  });

  after(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
  });

  it('the French home banner changes on /fr only, and empty goes back to the built-in text', async () => {
    const [{ page: adminPage }, { page: visitor }] = browsers;
    const field = startsWith(en('pageEditor.fields.banner_h2'));
    const banner = `Dépannage express, même la nuit ${RUN}`;

    await adminPage.goto(`${BASE_URL}/admin/frhome`);
    await heading(adminPage, en('pages.adminFrhome'));
    const lead = adminPage.getByLabel(field);
    // Never set, the field shows the built-in text.
    assert.equal(await lead.inputValue(), fr('home.banner_h2'));
    await lead.fill(banner);
    // The section's preview follows what is typed, in French.
    await adminPage.getByTestId('section-preview').getByText(banner).waitFor();
    await adminPage.getByRole('button', { name: en('pageEditor.save') }).click();
    await adminPage.getByText(en('pageEditor.saved')).first().waitFor();

    await signedIn(visitor, inLanguage('fr'));
    await openLanding(visitor, '/fr');
    await visitor.getByText(banner, { exact: true }).waitFor();
    await heading(visitor, fr('home.banner_h1'));

    await signedIn(visitor, inLanguage('en'));
    await openLanding(visitor, '/');
    await heading(visitor, en('home.banner_h1'));
    await visitor.getByText(en('home.banner_h2'), { exact: true }).waitFor();
    assert.equal(await visitor.getByText(banner).count(), 0, 'the English page shows the French');

    // Emptied, the field goes back to the built-in French text.
    await adminPage.goto(`${BASE_URL}/admin/frhome`);
    await heading(adminPage, en('pages.adminFrhome'));
    assert.equal(await adminPage.getByLabel(field).inputValue(), banner);
    await adminPage.getByLabel(field).fill('');
    await adminPage.getByRole('button', { name: en('pageEditor.save') }).click();
    await adminPage.getByText(en('pageEditor.saved')).first().waitFor();
    await signedIn(visitor, inLanguage('fr'));
    await openLanding(visitor, '/fr');
    await visitor.getByText(fr('home.banner_h2'), { exact: true }).waitFor();
    assert.equal(await visitor.getByText(banner).count(), 0);
  });
});
