import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import type { TranslationKey } from '@/lib/translation-key';
import { renderApp } from '@/test/render-app';
import {
  Code,
  MACLAREN_SUGGESTION,
  PROFESSIONAL_ID,
  TEST_SERVICES,
  professional,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

const fresh = professional({ profile: undefined });

describe('professional profile form', () => {
  it('marks every missing required field and focuses the first, without calling the server', async () => {
    signIn('professional', PROFESSIONAL_ID);
    const { transport, requests } = stubServer({
      getProfessional: () => ({ professional: fresh }),
      updateProfessionalProfile: () => ({}),
    });
    renderApp('/update-professional-profile', transport);
    await screen.findByRole('heading', { level: 1, name: 'Update Your Profile' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save the profile' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please fill in all required fields',
    );
    for (const message of [
      'Please describe your work.',
      'Please enter your registered address.',
      'Please enter the postal code.',
      'Please select at least one available day.',
      'Please enter your service radius, such as 50.',
      'Please choose your experience.',
      'Please enter your minimum fee, such as 30.00.',
      'Please select at least one specialization.',
    ]) {
      expect(screen.getByText(message)).toBeVisible();
    }
    expect(screen.getByLabelText(/^Description/)).toHaveFocus();
    expect(requests('updateProfessionalProfile')).toEqual([]);
  });

  it('puts the server refusals next to their fields and saves, then opens the licence step', async () => {
    signIn('professional', PROFESSIONAL_ID);
    let attempt = 0;
    const { transport, requests } = stubServer({
      getProfessional: () => ({ professional: professional() }),
      updateProfessionalProfile: () => {
        attempt += 1;
        if (attempt === 1) {
          throw rpcError(Code.InvalidArgument, 'INVALID_ARGUMENT', {
            'profile.home_base.postal_code': 'we could not find this postal code',
            'profile.radius_km': 'enter a radius from 1 to 500 km',
            'profile.something_new': 'a rule the form does not know',
          });
        }
        return { professional: professional() };
      },
    });
    const { router } = renderApp('/professional-profile', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save the profile' }));

    expect(
      await screen.findByText('We could not find this postal code. Check it, such as T2P 1J9.'),
    ).toBeVisible();
    expect(screen.getByText('enter a radius from 1 to 500 km')).toBeVisible();
    // Before approval the licence step follows the save: no separate way to it.
    expect(screen.queryByRole('link', { name: 'Add a licence' })).toBeNull();
    expect(screen.getByRole('alert')).toHaveTextContent('a rule the form does not know');
    expect(screen.getByLabelText(/^Postal code/)).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Save the profile' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/update-professional-licence'),
    );
    expect(await screen.findByText('Profile Successfully Updated!')).toBeVisible();
    expect(requests('updateProfessionalProfile')[1]).toMatchObject({
      id: PROFESSIONAL_ID,
      profile: { serviceIds: [TEST_SERVICES[0]!.id], homeBase: { postalCode: 'T2P 1J9' } },
    });
  });

  it.each([
    {
      language: 'en',
      addLicence: 'Add a licence',
      notice: 'Your change is saved and waits for an administrator’s approval.',
    },
    {
      language: 'fr',
      addLicence: 'Ajouter un permis',
      notice: 'Votre modification est enregistrée et attend l’approbation d’un administrateur.',
    },
  ])(
    'offers an approved professional a licence, and says a vetted change waits for approval ($language)',
    async ({ language, addLicence, notice }) => {
      localStorage.setItem('lang', language);
      signIn('professional', PROFESSIONAL_ID);
      const approved = professional({ state: ProfessionalState.APPROVED });
      const { transport } = stubServer({
        getProfessional: () => ({ professional: approved }),
        updateProfessionalProfile: () => ({
          professional: professional({
            state: ProfessionalState.APPROVED,
            pendingChange: { proposed: { name: 'Paule Pro inc.' }, revision: 1 },
          }),
        }),
      });
      const { router, i18n } = renderApp('/professional-profile', transport);
      const link = await screen.findByRole('link', { name: addLicence });
      expect(link.getAttribute('href')).toMatch(/\/update-professional-licence$/);
      await userEvent
        .setup()
        .click(screen.getByRole('button', { name: i18n.t('professionalProfile.save') }));
      await waitFor(() =>
        expect(router.state.location.pathname).toMatch(/\/update-professional-licence$/),
      );
      expect(await screen.findByText(notice)).toBeVisible();
      expect(screen.queryByText(i18n.t('professionalProfile.saved'))).toBeNull();
    },
  );

  it('checks the tax numbers in the page, then saves them normalised', async () => {
    signIn('professional', PROFESSIONAL_ID);
    const { transport, requests } = stubServer({
      getProfessional: () => ({ professional: professional() }),
      updateProfessionalProfile: () => ({ professional: professional() }),
    });
    const { router } = renderApp('/update-professional-profile', transport);
    const gst = await screen.findByLabelText(/^GST\/HST registration number/);
    const qst = screen.getByLabelText(/^QST registration number/);
    expect(
      screen.getByText('Optional. 9 digits, RT and 4 digits, such as 123456789RT0001.'),
    ).toBeVisible();
    expect(screen.getByText(/Without a GST\/HST number, your quotes carry no tax\./)).toBeVisible();
    const user = userEvent.setup();
    await user.type(qst, '1234567890TQ0001');
    await user.click(screen.getByRole('button', { name: 'Save the profile' }));
    expect(
      await screen.findByText('Give your GST/HST number too: a QST number goes with one.'),
    ).toBeVisible();
    await user.type(gst, '123456789RT01');
    await user.click(screen.getByRole('button', { name: 'Save the profile' }));
    expect(
      await screen.findByText('Enter your GST/HST number as 9 digits, RT and 4 digits.'),
    ).toBeVisible();
    expect(gst).toHaveAttribute('aria-invalid', 'true');
    expect(requests('updateProfessionalProfile')).toEqual([]);

    await user.clear(gst);
    await user.type(gst, '123 456 789 rt 0001');
    await user.click(screen.getByRole('button', { name: 'Save the profile' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/update-professional-licence'),
    );
    expect(requests('updateProfessionalProfile')[0]).toMatchObject({
      profile: { gstHstNumber: '123456789RT0001', qstNumber: '1234567890TQ0001' },
    });
  });

  it('shows the server’s refusal of a tax number under its field, in French', async () => {
    localStorage.setItem('lang', 'fr');
    signIn('professional', PROFESSIONAL_ID);
    const { transport } = stubServer({
      getProfessional: () => ({ professional: professional() }),
      updateProfessionalProfile: () => {
        throw rpcError(Code.InvalidArgument, 'INVALID_ARGUMENT', {
          'profile.qst_number': 'malformed QST number',
        });
      },
    });
    renderApp('/fr/update-professional-profile', transport);
    const gst = await screen.findByLabelText(/^Numéro d’inscription à la TPS\/TVH/);
    const qst = screen.getByLabelText(/^Numéro d’inscription à la TVQ/);
    const user = userEvent.setup();
    await user.type(gst, '123456789RT0001');
    await user.type(qst, '1234567890TQ0001');
    await user.click(screen.getByRole('button', { name: 'Enregistrer le profil' }));
    expect(
      await screen.findByText('Entrez votre numéro de TVQ en 10 chiffres, TQ et 4 chiffres.'),
    ).toBeVisible();
    expect(qst).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('malformed QST number')).toBeNull();
  });

  it('saves the choice of emergencies at any hour from its switch', async () => {
    signIn('professional', PROFESSIONAL_ID);
    const { transport, requests } = stubServer({
      getProfessional: () => ({ professional: professional() }),
      updateProfessionalProfile: () => ({ professional: professional() }),
    });
    renderApp('/update-professional-profile', transport);
    const toggle = await screen.findByRole('checkbox', { name: 'Receive emergencies at any hour' });
    expect(toggle).not.toBeChecked();
    const user = userEvent.setup();
    await user.click(toggle);
    expect(toggle).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save the profile' }));
    await waitFor(() => expect(requests('updateProfessionalProfile')).toHaveLength(1));
    expect(requests('updateProfessionalProfile')[0]).toMatchObject({ emergenciesAnyHour: true });
  });

  it('refuses a photo that is too large before sending it', async () => {
    signIn('professional', PROFESSIONAL_ID);
    const { transport, requests } = stubServer({
      getProfessional: () => ({ professional: professional() }),
      setProfessionalPhoto: () => ({ photoUrl: '/files/p.png' }),
    });
    renderApp('/update-professional-profile', transport);
    const input = await screen.findByLabelText('Profile picture');
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await userEvent.setup().upload(input, big);
    expect(await screen.findByText('This file is too large: 5 MB at most.')).toBeVisible();
    expect(requests('setProfessionalPhoto')).toEqual([]);
  });

  it.each([
    {
      language: 'en',
      fee: '30.00',
      lookup: 'Find your home base',
      credit: '© OpenStreetMap contributors',
    },
    {
      language: 'fr',
      fee: '30,00',
      lookup: 'Trouvez votre port d’attache',
      credit: '© les contributeurs d’OpenStreetMap',
    },
  ])(
    'fills the home base from a suggested street address and credits the map data ($language)',
    async ({ language, fee, lookup: lookupName, credit }) => {
      localStorage.setItem('lang', language);
      signIn('professional', PROFESSIONAL_ID);
      const asked: string[] = [];
      const { transport, requests } = stubServer(
        {
          getProfessional: () => ({ professional: professional() }),
          updateProfessionalProfile: () => ({ professional: professional() }),
        },
        {},
        {
          marketplace: {
            suggestAddresses: (request) => {
              asked.push(`${request.query}|${request.language}`);
              return { suggestions: [MACLAREN_SUGGESTION] };
            },
          },
        },
      );
      const { i18n } = renderApp('/update-professional-profile', transport);
      // A label as the page reads (white space, the French narrow ones too, as single spaces).
      const field = (key: TranslationKey) =>
        screen.getByLabelText(new RegExp(`^${i18n.t(key).replace(/\s+/g, ' ')}`));
      const user = userEvent.setup();
      const lookup = await screen.findByRole('combobox', { name: lookupName });
      await user.type(lookup, '800 Macl');
      await waitFor(() => expect(lookup).toHaveAttribute('aria-expanded', 'true'));
      expect(screen.getByText(credit)).toBeVisible();
      expect(asked.at(-1)).toBe(`800 Macl|${language}`);

      await user.click(screen.getByRole('option', { name: MACLAREN_SUGGESTION.displayName }));
      expect(lookup).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByText(credit)).not.toBeVisible();
      expect(field('professionalProfile.line1')).toHaveValue('800 Maclaren Street');
      expect(field('professionalProfile.city')).toHaveValue('Ottawa');
      expect(field('professionalProfile.province')).toHaveValue('ON');
      expect(field('professionalProfile.postalCode')).toHaveValue('K2P 0T4');
      // The saved minimum fee of 30.00 CAD, written the reader's way, saves back unchanged.
      expect(field('professionalProfile.minimumFee')).toHaveValue(fee);

      await user.click(screen.getByRole('button', { name: i18n.t('professionalProfile.save') }));
      await waitFor(() => expect(requests('updateProfessionalProfile')).toHaveLength(1));
      expect(requests('updateProfessionalProfile')[0]).toMatchObject({
        profile: {
          homeBase: {
            line1: '800 Maclaren Street',
            city: 'Ottawa',
            province: 'ON',
            postalCode: 'K2P 0T4',
          },
          minimumFee: { amountCents: 3000n, currency: 'CAD' },
        },
      });
    },
  );
});
