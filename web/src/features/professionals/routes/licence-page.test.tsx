import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import {
  Code,
  PROFESSIONAL_ID,
  professional,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

const pdf = () => new File(['%PDF-1.4\n%%EOF\n'], 'permit.pdf', { type: 'application/pdf' });

function server(addLicence?: () => { licence: { id: string; label: string } }) {
  signIn('professional', PROFESSIONAL_ID);
  return stubServer({
    getProfessional: () => ({ professional: professional() }),
    addLicence: addLicence ?? (() => ({ licence: { id: 'l1', label: 'Plumbing' } })),
    submitProfileForReview: () => ({
      professional: professional({ state: ProfessionalState.WAITING_FOR_APPROVAL }),
    }),
  });
}

describe('licence step', () => {
  it('asks before continuing with blank licence values, then sends the profile to review', async () => {
    const { transport, requests } = server();
    const { router } = renderApp('/update-professional-licence', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Continue with Licence Update' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'You are submitting blank licence values. Are you sure?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests('submitProfileForReview')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Continue with Licence Update' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, continue' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/waiting-for-approval'));
    expect(requests('submitProfileForReview')).toHaveLength(1);
  });

  it('says what a half-filled row lacks', async () => {
    const { transport, requests } = server();
    renderApp('/update-professional-licence', transport);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Licence for'), 'Plumbing');
    await user.click(screen.getByRole('button', { name: 'Continue with Licence Update' }));
    expect(await screen.findByText('Choose the licence file.')).toBeVisible();
    expect(requests('addLicence')).toEqual([]);
  });

  it('uploads each filled row, then shows the state page with the success line', async () => {
    const { transport, requests } = server();
    const { router } = renderApp('/update-professional-licence', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add another licence' }));
    const rows = screen.getAllByRole('group', { name: /^Licence \d$/ });
    expect(rows).toHaveLength(2);
    await user.type(within(rows[0]!).getByLabelText('Licence for'), 'Plumbing');
    await user.upload(within(rows[0]!).getByLabelText('File'), pdf());
    await user.click(screen.getByRole('button', { name: 'Continue with Licence Update' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/waiting-for-approval'));
    expect(await screen.findByText('Licence Successfully Updated!')).toBeVisible();
    expect(requests('addLicence')).toHaveLength(1);
    expect(requests('addLicence')[0]).toMatchObject({
      professionalId: PROFESSIONAL_ID,
      label: 'Plumbing',
      fileName: 'permit.pdf',
      contentType: 'application/pdf',
    });
  });

  it('shows a refused file next to its row', async () => {
    const { transport } = server(() => {
      throw rpcError(Code.InvalidArgument, 'FILE_TYPE_MISMATCH', { content: 'not a pdf' });
    });
    renderApp('/update-professional-licence', transport);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Licence for'), 'Plumbing');
    await user.upload(screen.getByLabelText('File'), pdf());
    await user.click(screen.getByRole('button', { name: 'Continue with Licence Update' }));
    expect(
      await screen.findByText("This file's content does not match its type. Choose another file."),
    ).toBeVisible();
  });

  it.each([
    {
      language: 'en',
      dashboard: '/professional-dashboard',
      notice: 'Your change is saved and waits for an administrator’s approval.',
    },
    {
      language: 'fr',
      dashboard: '/fr/professional-dashboard',
      notice: 'Votre modification est enregistrée et attend l’approbation d’un administrateur.',
    },
  ])(
    'tells an approved professional that a new licence waits for approval ($language)',
    async ({ language, dashboard, notice }) => {
      localStorage.setItem('lang', language);
      signIn('professional', PROFESSIONAL_ID);
      const approved = professional({ state: ProfessionalState.APPROVED });
      const { transport } = stubServer(
        {
          getProfessional: () => ({ professional: approved }),
          addLicence: () => ({ licence: { id: 'l1', label: 'Plumbing', awaitingReview: true } }),
          submitProfileForReview: () => ({
            professional: professional({
              state: ProfessionalState.APPROVED,
              pendingChange: { licencesAwaitingReview: 1, revision: 1 },
            }),
          }),
        },
        {},
        { marketplace: { getProfessionalDashboard: () => ({}) } },
      );
      const { router, i18n } = renderApp('/update-professional-licence', transport);
      const user = userEvent.setup();
      await user.type(await screen.findByLabelText(i18n.t('licences.label')), 'Plumbing');
      await user.upload(screen.getByLabelText(i18n.t('licences.file')), pdf());
      await user.click(screen.getByRole('button', { name: i18n.t('licences.continueWith') }));

      await waitFor(() => expect(router.state.location.pathname).toBe(dashboard));
      expect(await screen.findByText(notice)).toBeVisible();
      expect(screen.queryByText(i18n.t('licences.saved'))).toBeNull();
    },
  );
});
