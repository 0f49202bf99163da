// End-to-end: the admin's content screens against the whole running stack, each change read
// back where visitors see it. The French home banner changed on /admin/frhome shows on /fr and
// not on /, which keeps its English text; emptied again, /fr goes back to the built-in text. A
// service added with an icon on /admin/add-service is listed on /admin/service-list with that
// icon (after the server refused a fake PNG and a name taken, each beside its field), offered
// by a signed-in customer's /create-request and shown on the landing pages.
// The admin works in English; texts are read from the app's catalogues. With E2E_SHOTS_DIR
// set, the service screens are saved in both languages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, heading, openBrowser, signedIn } from './browser.mjs';
import { startsWith, translator } from './i18n.mjs';
import { loadedImage, solidPng } from './images.mjs';
import { RUN, shot } from './stack.mjs';
import { adminSession, customer } from './test-accounts.mjs';

/** The stored-language localStorage entry: / shows English, /fr French. */
const inLanguage = (language) => ({ lang: language });

/**
 * Opens a landing page. It arrives with the server's current texts filled in by the BFF
 * (prerendered pages, src/prerender): no call of the browser's brings them.
 */
async function openLanding(page, path) {
  await page.goto(`${BASE_URL}${path}`);
  await page.waitForLoadState('networkidle');
}

describe('the content screens', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>[]} */
  let browsers = [];
  /** The texts in English (also the admin's language), then in French. */
  let en;
  let fr;

  before(async () => {
    browsers = await Promise.all([openBrowser(), openBrowser(), openBrowser()]);
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

  it('a service added with an icon is listed, offered on /create-request and on the landing', async () => {
    const [{ page: adminPage }, { page: visitor }, { page: customerPage }] = browsers;
    const name = { en: `Gutter cleaning ${RUN}`, fr: `Nettoyage de gouttières ${RUN}` };
    const description = {
      en: 'Blocked gutters and downspouts cleared before the next storm.',
      fr: 'Gouttières et descentes bouchées dégagées avant le prochain orage.',
    };

    await adminPage.goto(`${BASE_URL}/admin/add-service`);
    await heading(adminPage, en('pages.adminAddService'));
    await shot(adminPage, 'add-service-en');
    const textbox = (key) => adminPage.getByRole('textbox', { name: startsWith(en(key)) });
    const iconInput = adminPage.getByLabel(en('serviceAdmin.icon'));
    const add = adminPage.getByRole('button', { name: en('serviceAdmin.create') });
    // First the server's refusals, each beside its field: bytes that are not the PNG their
    // type says, then an English name the catalogue already has (in another case).
    await textbox('serviceAdmin.nameEn').fill('plumbing SERVICES');
    await textbox('serviceAdmin.nameFr').fill(name.fr);
    await textbox('serviceAdmin.descriptionEn').fill(description.en);
    await textbox('serviceAdmin.descriptionFr').fill(description.fr);
    await iconInput.setInputFiles({
      name: 'gutter.png',
      mimeType: 'image/png',
      buffer: Buffer.from('GIF89a, not a PNG'),
    });
    await add.click();
    await adminPage.getByText(en('errors.reasons.FILE_TYPE_MISMATCH')).waitFor();
    assert.equal(await iconInput.getAttribute('aria-invalid'), 'true');

    const icon = solidPng(32, [0x1d, 0x4e, 0xd8]);
    await iconInput.setInputFiles({ name: 'gutter.png', mimeType: 'image/png', buffer: icon });
    await adminPage
      .getByText(en('serviceAdmin.iconChosen', { name: 'gutter.png', type: 'image/png', size: 1 }))
      .waitFor();
    await add.click();
    await adminPage.getByText(en('errors.reasons.SERVICE_NAME_TAKEN')).waitFor();
    assert.equal(await textbox('serviceAdmin.nameEn').getAttribute('aria-invalid'), 'true');
    assert.equal(await textbox('serviceAdmin.nameFr').getAttribute('aria-invalid'), null);

    await textbox('serviceAdmin.nameEn').fill(name.en);
    await add.click();

    // Listed at the end of the catalogue, with its icon served.
    await adminPage.waitForURL(`${BASE_URL}/admin/service-list`);
    await adminPage
      .getByText(en('serviceAdmin.created', { name: name.en }))
      .first()
      .waitFor();
    const row = adminPage.getByRole('row').filter({ hasText: name.en });
    await row.getByText(name.fr, { exact: true }).waitFor();
    await loadedImage(row.locator('img'));
    await shot(adminPage, 'service-list-en');

    // A signed-in customer can ask for it.
    const casey = await customer('Casey Gutters', { verify: true });
    await signedIn(customerPage, { ...casey.storage, lang: 'en' });
    await customerPage.goto(`${BASE_URL}/create-request`);
    await heading(customerPage, en('pages.createRequest'));
    await customerPage.getByRole('radio', { name: name.en }).waitFor();

    // The landing pages show it with its icon, in their language.
    for (const [path, language] of [
      ['/', 'en'],
      ['/fr', 'fr'],
    ]) {
      await signedIn(visitor, inLanguage(language));
      await visitor.goto(`${BASE_URL}${path}`);
      const card = visitor
        .getByRole('listitem')
        .filter({ has: visitor.getByRole('heading', { level: 3, name: name[language] }) });
      await card.getByText(description[language], { exact: true }).waitFor();
      await loadedImage(card.locator('img'));
    }

    // The same screens in French, for the screenshots.
    await adminPage.evaluate(() => localStorage.setItem('lang', 'fr'));
    await adminPage.goto(`${BASE_URL}/admin/service-list`);
    await heading(adminPage, fr('pages.adminServiceList'));
    await loadedImage(adminPage.getByRole('row').filter({ hasText: name.en }).locator('img'));
    await shot(adminPage, 'service-list-fr');
    await adminPage.goto(`${BASE_URL}/admin/add-service`);
    await heading(adminPage, fr('pages.adminAddService'));
    await shot(adminPage, 'add-service-fr');
    await adminPage.evaluate(() => localStorage.setItem('lang', 'en'));
  });
});
