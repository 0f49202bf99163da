// End-to-end: accounts against the whole running stack (server + BFF serving web/dist).
// E2E_BASE_URL is the BFF; see ./stack.mjs for the other variables. With E2E_SHOTS_DIR set,
// the main screens are also saved as screenshots at 1280 and 390 pixels wide.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, heading, openBrowser } from './browser.mjs';
import { ADMIN_EMAIL, ADMIN_PASSWORD, freshPhone, phoneCode, RUN, shot } from './stack.mjs';

/** Sends the phone step, reads the code from the outbox and enters it (labels per language). */
async function verifyPhone(page, labels, shotPrefix) {
  const phone = freshPhone();
  await page.getByLabel(labels.number).fill(phone.national);
  await shot(page, `${shotPrefix}-phone-step`);
  await page.getByRole('button', { name: labels.send }).click();
  await page.waitForURL(/otp-verify\/[^/]+\/1403\d{7}$/);
  const code = await phoneCode(phone.e164);
  await page.getByLabel(labels.code).fill(code);
  await shot(page, `${shotPrefix}-code-step`);
  await page.getByRole('button', { name: labels.verify, exact: true }).click();
}

describe('accounts', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let customerBrowser;
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let professionalBrowser;
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let adminBrowser;
  let filesDir = '';

  before(async () => {
    [customerBrowser, professionalBrowser, adminBrowser] = await Promise.all([
      openBrowser(),
      openBrowser(),
      openBrowser(),
    ]);
    filesDir = await mkdtemp(join(tmpdir(), 'repairs-e2e-files-'));
  });

  after(async () => {
    await Promise.all([
      customerBrowser?.close(),
      professionalBrowser?.close(),
      adminBrowser?.close(),
    ]);
    if (filesDir) await rm(filesDir, { recursive: true, force: true });
  });

  it('a customer signs up, verifies the phone, logs in, edits the account and logs out', async () => {
    const { page } = customerBrowser;
    const email = `customer-${RUN}@example.ca`;
    const password = 'a-good-password-1';

    await page.goto(`${BASE_URL}/register`);
    await heading(page, 'Sign up');
    // The form says what is missing before anything is sent.
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByText('Please enter your name.').waitFor();
    await shot(page, 'register-errors');
    await page.getByLabel('Name').fill('Casey Customer');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password\*?$/).fill(password);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();

    await page.waitForURL(/\/phone-otp\/[0-9a-f-]+$/);
    await heading(page, 'Verify your phone');
    await verifyPhone(
      page,
      { number: 'Phone number', send: 'Send the code', code: '4-digit code', verify: 'Verify' },
      'customer',
    );
    await page.waitForURL(`${BASE_URL}/thanks-signup`);
    await heading(page, 'Thank you for signing up');

    await page.goto(`${BASE_URL}/user-logout`);
    await page.waitForURL(`${BASE_URL}/`);
    await page.goto(`${BASE_URL}/login`);
    await heading(page, 'Sign in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password\*?$/).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Email/Password Mismatch' }).waitFor();
    await shot(page, 'login-error');
    await page.getByLabel(/^Password\*?$/).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${BASE_URL}/create-request`);

    await page.goto(`${BASE_URL}/user-account-setting`);
    await heading(page, 'My profile');
    const name = page.getByLabel('Name');
    assert.equal(await name.inputValue(), 'Casey Customer');
    await name.fill('Casey Renamed');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.waitForURL(`${BASE_URL}/user-profile-updated`);
    await page.getByText('Your profile was updated.').waitFor();
    await page.goto(`${BASE_URL}/user-account-setting`);
    await page.getByLabel('Name').waitFor();
    assert.equal(await page.getByLabel('Name').inputValue(), 'Casey Renamed');

    await page
      .getByRole('navigation', { name: 'Customer menu' })
      .first()
      .getByRole('link', { name: 'Sign out' })
      .click();
    await page.waitForURL(`${BASE_URL}/`);
    assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
  });

  it('a professional signs up in French, fills the profile and a licence, is approved by the admin and reaches the dashboard', async () => {
    const { page } = professionalBrowser;
    const email = `pro-${RUN}@example.ca`;
    const proName = `Paule Plombière ${RUN}`;
    const password = 'un-bon-mot-de-passe';

    await page.goto(`${BASE_URL}/fr/register-as-professional`);
    await heading(page, 'Inscription professionnel');
    await shot(page, 'register-professional-fr');
    await page.getByLabel('Nom').fill(proName);
    await page.getByLabel('Courriel').fill(email);
    await page.getByLabel(/^Mot de passe\*?$/).fill(password);
    await page.getByRole('button', { name: 'S’inscrire', exact: true }).click();

    // Signed up in French, every page from here on is under /fr.
    await page.waitForURL(/\/fr\/professional-phone-otp\/[0-9a-f-]+$/);
    await heading(page, 'Vérifiez votre téléphone');
    await verifyPhone(
      page,
      {
        number: 'Numéro de téléphone',
        send: 'Envoyer le code',
        code: 'Code à 4 chiffres',
        verify: 'Vérifier',
      },
      'professional-fr',
    );
    await page.waitForURL(`${BASE_URL}/fr/professional-thanks-signup`);
    await page.getByRole('link', { name: 'Compléter votre profil' }).click();

    await page.waitForURL(`${BASE_URL}/fr/update-professional-profile`);
    await heading(page, 'Mettre à jour votre profil');
    // Sent empty, the form marks the required fields and focuses the first one.
    await page.getByLabel('Nom').fill('');
    await page.getByRole('button', { name: 'Enregistrer le profil' }).click();
    await page.getByText('Veuillez décrire votre travail.').waitFor();
    await page.getByText('Veuillez choisir au moins un jour de disponibilité.').waitFor();
    assert.equal(await page.getByLabel('Nom').getAttribute('aria-invalid'), 'true');
    await shot(page, 'profile-errors-fr');

    await page.getByLabel('Nom').fill(proName);
    await page
      .getByLabel('Description')
      .fill('Plombière certifiée, urgences 24 h sur 24 à Calgary.');
    await page.getByLabel('Adresse enregistrée').fill('100 7 Ave SW, Calgary AB T2P 1J9');
    await page.getByLabel('Port d’attache : adresse').fill('100 7 Ave SW');
    await page.getByLabel('Ville').fill('Calgary');
    await page.getByLabel('Province ou territoire').selectOption('AB');
    await page.getByLabel('Code postal').fill('T2P 1J9');
    for (const day of ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi']) {
      await page.getByText(day, { exact: true }).click();
    }
    await page.getByLabel('Rayon de service').fill('50');
    await page.getByLabel('Tarif minimum').fill('30,00');
    await page.getByLabel('Expérience').selectOption({ label: 'De 5 à 10 ans' });
    await page.getByText('Services de plomberie', { exact: true }).click();
    await page.getByRole('button', { name: 'Enregistrer le profil' }).click();

    await page.waitForURL(`${BASE_URL}/fr/update-professional-licence`);
    await page.getByText('Profil mis à jour avec succès!').waitFor();
    await heading(page, 'Mettre à jour votre permis');
    const pdf = join(filesDir, 'permis.pdf');
    await writeFile(
      pdf,
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    );
    await page.getByLabel('Permis pour').fill('Services de plomberie');
    await page.getByLabel('Fichier').setInputFiles(pdf);
    await shot(page, 'licence-step-fr');
    await page.getByRole('button', { name: 'Continuer avec la mise à jour du permis' }).click();

    await page.waitForURL(`${BASE_URL}/fr/waiting-for-approval`);
    await heading(page, 'Inscription réussie');
    await page.getByText('Permis mis à jour avec succès!').waitFor();
    await shot(page, 'waiting-for-approval-fr');

    // The admin approves.
    const admin = adminBrowser.page;
    await admin.goto(`${BASE_URL}/admin`);
    await heading(admin, 'Administrator sign-in');
    await admin.getByLabel('Email').fill(ADMIN_EMAIL);
    await admin.getByLabel(/^Password\*?$/).fill(ADMIN_PASSWORD);
    await admin.getByRole('button', { name: 'Sign in', exact: true }).click();
    await admin.waitForURL(`${BASE_URL}/admin/professionals-list`);
    const row = admin.getByRole('row').filter({ hasText: proName });
    await row.getByText('Waiting for approval').waitFor();
    await shot(admin, 'admin-professionals-list');
    await row.getByRole('link', { name: proName }).click();
    await admin.waitForURL(/\/admin\/view-professional\/[0-9a-f-]+$/);
    await admin.getByRole('link', { name: 'Open Services de plomberie' }).waitFor();
    await admin.getByRole('button', { name: 'Delete' }).waitFor();
    await shot(admin, 'admin-view-professional');
    await admin.getByRole('button', { name: 'Approve' }).click();
    const dialog = admin.getByRole('alertdialog', {
      name: 'Do you want to approve this Professional?',
    });
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await admin.waitForURL(`${BASE_URL}/admin/professionals-list`);
    await admin.getByText(`${proName} is approved.`).waitFor();
    await admin.getByRole('row').filter({ hasText: proName }).getByText('Approved').waitFor();

    // The approval left the professional's session alone: from the page they kept open, the
    // menu reaches the dashboard (with the inactive-membership notice) without signing in.
    const session = () =>
      page.evaluate(() => [
        localStorage.getItem('professional-token'),
        localStorage.getItem('professional-refresh-token'),
      ]);
    const [tokenBefore, refreshBefore] = await session();
    assert.ok(tokenBefore && refreshBefore, 'the sign-up stored a lasting session');
    assert.equal(new URL(page.url()).pathname, '/fr/waiting-for-approval');
    await page
      .getByRole('navigation', { name: 'Menu professionnel' })
      .first()
      .getByRole('link', { name: 'Tableau de bord' })
      .click();
    await page.waitForURL(`${BASE_URL}/fr/professional-dashboard`);
    await heading(page, 'Tableau de bord');
    await page.getByText('Votre abonnement est inactif').waitFor();
    assert.deepEqual(await session(), [tokenBefore, refreshBefore]);
    // A page opened afresh still finds the session, and its French twin.
    await page.goto(`${BASE_URL}/professional-dashboard`);
    await page.waitForURL(`${BASE_URL}/fr/professional-dashboard`);
    await heading(page, 'Tableau de bord');
    await shot(page, 'professional-dashboard-fr');
  });
});
