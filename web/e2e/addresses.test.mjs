// End-to-end: addresses to the door on the request form, on a phone (390 x 844), in English and
// in French, with the stack's Photon stand-in (photon-stand-in.mjs answers the GeoJSON recorded
// for the server's tests). A customer types "800 Macl" in the address look-up: the street
// address is suggested, with OpenStreetMap's credit beside the suggestions, and choosing it
// fills the street, city, province and postal code. The fields emptied, "Use my location",
// with the phone's position set through the DevTools protocol (Centretown, Ottawa), fills them
// again from the address at that position (ReverseGeocode). Photon is asked in the reader's
// language and in Canada. The form fits the phone and axe finds nothing serious on it, with the
// suggestions open and once the position has filled it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { BASE_URL, heading, openBrowser, signedIn } from './browser.mjs';
import { fitProblems } from './fit-check.mjs';
import { startsWith, translator } from './i18n.mjs';
import { photonCalls, shot } from './stack.mjs';
import { customer } from './test-accounts.mjs';

const PHONE = { width: 390, height: 844 };

/** What the recorded answers say is at 800 Maclaren Street, Ottawa. */
const DOOR = {
  line1: '800 Maclaren Street',
  city: 'Ottawa',
  province: 'ON',
  postalCode: 'K2P 0T4',
};

/** The address fields of a new request. */
const NO_ADDRESS = { line1: '', city: '', province: '', postalCode: '' };

/** Centretown, Ottawa: the phone's position (the recorded reverse answer's door). */
const CENTRETOWN = { latitude: 45.4126, longitude: -75.6952, accuracy: 10 };

/** The address fields of the request form, by their labels in the run's language. */
const addressFields = (page, t) => ({
  line1: page.getByLabel(startsWith(t('requests.line1'))),
  city: page.getByLabel(startsWith(t('requests.city'))),
  province: page.getByLabel(startsWith(t('requests.province'))),
  postalCode: page.getByLabel(startsWith(t('requests.postalCode'))),
});

const valuesOf = async (fields) =>
  Object.fromEntries(
    await Promise.all(
      Object.entries(fields).map(async ([name, field]) => [name, await field.inputValue()]),
    ),
  );

/** Waits until the fields hold `expected` (the form fills them once the server answers). */
async function waitForValues(fields, expected, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let values = await valuesOf(fields);
  while (Date.now() < deadline) {
    if (JSON.stringify(values) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
    values = await valuesOf(fields);
  }
  assert.deepEqual(values, expected, 'the address fields were not filled');
}

/** Fails when anything on the form passes the phone's width, or axe finds a serious fault. */
async function checkScreen(page, language, shown) {
  const problems = await fitProblems(page, {
    path: '/create-request',
    shown,
    language,
    size: PHONE,
  });
  assert.deepEqual(problems, []);
  await assertAccessible(page, `the request form, ${shown} (${language}, 390 px)`);
}

describe('addresses to the door on the request form', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let browser;

  before(async () => {
    browser = await openBrowser({ viewport: PHONE });
    // The DevTools protocol's geolocation override (Emulation.setGeolocationOverride): the
    // phone is in Centretown, and the page may ask where it is.
    await browser.context.grantPermissions(['geolocation'], { origin: BASE_URL });
    await browser.context.setGeolocation(CENTRETOWN);
  });

  after(async () => {
    await browser?.close();
  });

  for (const language of ['en', 'fr']) {
    it(`in ${language}: "800 Macl" suggests the street address, and Use my location fills it`, async () => {
      const t = await translator(language);
      const casey = await customer(`Casey Door ${language}`, { verify: true });
      const { page } = browser;
      await signedIn(page, { ...casey.storage, lang: language });
      await page.goto(`${BASE_URL}/create-request`);
      await heading(page, t('pages.createRequest'));
      const fields = addressFields(page, t);
      assert.deepEqual(await valuesOf(fields), NO_ADDRESS);

      // Typed as a person types: one look-up once the typing pauses.
      const lookup = page.getByRole('combobox', { name: t('requests.lookup') });
      await lookup.pressSequentially('800 Macl', { delay: 40 });
      const door = page.getByRole('option', {
        name: `${DOOR.line1}, ${DOOR.city}, ${DOOR.province}, ${DOOR.postalCode}`,
      });
      await door.waitFor();
      await page.getByText(t('addresses.mapAttribution'), { exact: true }).waitFor();
      assert.equal(await lookup.getAttribute('aria-expanded'), 'true');
      await shot(page, `address-suggestions-${language}`);
      await checkScreen(page, language, 'the street suggestions open');

      await door.click();
      assert.deepEqual(await valuesOf(fields), DOOR);
      assert.equal(await lookup.getAttribute('aria-expanded'), 'false');

      for (const name of ['line1', 'city', 'postalCode']) await fields[name].fill('');
      await fields.province.selectOption('');
      assert.deepEqual(await valuesOf(fields), NO_ADDRESS);
      await page.getByRole('button', { name: t('requests.location.use') }).click();
      await waitForValues(fields, DOOR);
      await checkScreen(page, language, 'filled from the position');

      const calls = await photonCalls();
      const search = calls.find(
        ({ path, query }) => path === '/api' && query.q === '800 Macl' && query.lang === language,
      );
      assert.ok(search, `Photon was not asked for "800 Macl" in ${language}`);
      assert.equal(search.query.countrycode, 'CA');
      assert.match(search.query.limit, /^[1-9]\d*$/);
      const reverse = calls.find(
        ({ path, query }) => path === '/reverse' && query.lang === language,
      );
      assert.ok(reverse, `Photon was not asked for the address at the position in ${language}`);
      assert.equal(Number(reverse.query.lat), CENTRETOWN.latitude);
      assert.equal(Number(reverse.query.lon), CENTRETOWN.longitude);
    });
  }
});
