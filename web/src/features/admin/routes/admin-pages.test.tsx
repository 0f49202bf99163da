import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  type ListCustomersRequest,
  type ListProfessionalsRequest,
  ProfessionalState,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import { setViewportWidth } from '@/test/viewport';
import {
  CUSTOMER_ID,
  PROFESSIONAL_ID,
  TEST_SERVICES,
  customer,
  professional,
  signIn,
  stubServer,
} from '@/test/stub-server';

const view = `/admin/view-professional/${PROFESSIONAL_ID}`;

function adminServer(state: ProfessionalState = ProfessionalState.WAITING_FOR_APPROVAL) {
  signIn('admin', 'a1');
  let current = professional({ state });
  return stubServer({
    getProfessional: () => ({ professional: current }),
    listProfessionals: () => ({ professionals: [current], nextPageToken: '' }),
    approveProfessional: () => {
      current = professional({ state: ProfessionalState.APPROVED });
      return { professional: current };
    },
    denyProfessional: ({ reason }) => {
      current = professional({ state: ProfessionalState.DENIED, denialReason: reason });
      return { professional: current };
    },
    deleteProfessional: () => ({}),
    listCustomers: () => ({ customers: [customer()] }),
    getCustomer: () => ({ customer: customer() }),
    deleteCustomer: () => ({}),
  });
}

const decisions = () => screen.findByRole('group', { name: 'Decisions' });

describe('admin: professionals', () => {
  it('lists professionals with their state and links to each', async () => {
    const { transport, calls } = adminServer();
    renderApp('/admin/professionals-list', transport);
    const link = await screen.findByRole('link', { name: 'Paule Pro' });
    expect(link).toHaveAttribute('href', view);
    const row = link.closest('tr')!;
    expect(within(row as HTMLElement).getByText('Waiting for approval')).toBeVisible();
    expect(calls[0]?.authorization).toMatch(/^Bearer /);
  });

  it.each([
    [ProfessionalState.APPROVED, ['Deny', 'Delete']],
    [ProfessionalState.DENIED, ['Approve', 'Delete']],
    [ProfessionalState.WAITING_FOR_APPROVAL, ['Approve', 'Deny', 'Delete']],
    [ProfessionalState.PROFILE_UPDATED, ['Approve', 'Deny', 'Delete']],
  ])('shows the decisions allowed in state %i', async (state, labels) => {
    renderApp(view, adminServer(state).transport);
    const group = await decisions();
    const shown = [...group.querySelectorAll('a, button')].map((element) => element.textContent);
    expect(shown).toEqual(labels);
    expect(screen.getByRole('link', { name: 'Payouts and balance' })).toHaveAttribute(
      'href',
      `/admin/professional-payouts/${PROFESSIONAL_ID}`,
    );
  });

  it('shows each licence on a phone as a card whose file link is whole', async () => {
    setViewportWidth(390);
    signIn('admin', 'a1');
    const label = 'Journeyperson plumber certificate, Alberta';
    const { transport } = stubServer({
      getProfessional: () => ({
        professional: professional({
          licences: [{ id: 'l1', label, fileUrl: '/files/licences/l1.pdf' }],
        }),
      }),
    });
    renderApp(view, transport);
    const cards = await screen.findByRole('list', { name: 'Licences' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(cards).getByRole('listitem');
    expect(within(card).getByText(label)).toBeVisible();
    expect(within(card).getByRole('link', { name: `Open ${label}` })).toHaveAttribute(
      'href',
      '/files/licences/l1.pdf',
    );
  });

  it('approves after a confirmation dialog, through the action route, back to the list', async () => {
    const { transport, requests } = adminServer();
    const { router } = renderApp(view, transport);
    const user = userEvent.setup();
    await user.click(within(await decisions()).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Do you want to approve this Professional?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/professionals-list'));
    expect(requests('approveProfessional')).toEqual([
      expect.objectContaining({ id: PROFESSIONAL_ID }),
    ]);
    expect(await screen.findByText('Paule Pro is approved.')).toBeVisible();
    expect(await screen.findByText('Approved')).toBeVisible();
  });

  it('needs a reason to deny', async () => {
    const { transport, requests } = adminServer();
    const { router } = renderApp(`/admin/disapprove-professional/${PROFESSIONAL_ID}`, transport);
    await screen.findByRole('heading', { level: 1, name: 'Deny professional' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('Please give the reason for the denial.')).toBeVisible();
    expect(requests('denyProfessional')).toEqual([]);

    await user.type(screen.getByLabelText(/^Reason for the denial/), 'Licence unreadable');
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/professionals-list'));
    expect(requests('denyProfessional')[0]).toMatchObject({
      id: PROFESSIONAL_ID,
      reason: 'Licence unreadable',
    });
  });

  it('deletes only after "Do you want to delete this Professional?"', async () => {
    const { transport, requests } = adminServer();
    const { router } = renderApp(view, transport);
    const user = userEvent.setup();
    await user.click(within(await decisions()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Do you want to delete this Professional?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests('deleteProfessional')).toEqual([]);

    await user.click(within(await decisions()).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/professionals-list'));
    expect(requests('deleteProfessional')).toHaveLength(1);
  });
});

describe('admin: a pending change', () => {
  const awaiting = () =>
    professional({
      state: ProfessionalState.APPROVED,
      licences: [
        { id: 'l1', label: 'Plumbing licence 2025', fileUrl: '/files/l1.pdf' },
        {
          id: 'l2',
          label: 'Plumbing licence 2026',
          fileUrl: '/files/l2.pdf',
          awaitingReview: true,
        },
      ],
      pendingChange: {
        proposed: {
          name: 'Paule Pro',
          registeredAddress: '200 Centre St S, Calgary',
          serviceIds: TEST_SERVICES.map((service) => service.id),
          qualification: 'Journeyman',
          experience: 3,
        },
        licencesAwaitingReview: 1,
        revision: 4,
      },
    });

  function pendingServer() {
    signIn('admin', 'a1');
    let current = awaiting();
    const decided = () => {
      current = professional({ state: ProfessionalState.APPROVED });
      return { professional: current };
    };
    return stubServer({
      getProfessional: () => ({ professional: current }),
      listProfessionals: () => ({ professionals: [current], nextPageToken: '' }),
      approvePendingChange: decided,
      refusePendingChange: decided,
    });
  }

  const section = (name = 'Change awaiting review') => screen.findByRole('region', { name });

  it('shows the change beside the approved profile and approves the revision read', async () => {
    const { transport, requests } = pendingServer();
    renderApp(view, transport);
    const change = await section();
    // Each changed detail as approved and as requested; unchanged ones are not listed.
    expect(within(change).getByText('100 7 Ave SW, Calgary')).toBeVisible();
    expect(within(change).getByText('200 Centre St S, Calgary')).toBeVisible();
    expect(await within(change).findByText('Plumbing Services, Roofing Services')).toBeVisible();
    expect(within(change).queryByText('Journeyman')).toBeNull();
    // The new licence waits in the change; the approved one stays with the profile.
    expect(within(change).getByText('Plumbing licence 2026')).toBeVisible();
    expect(within(change).queryByText('Plumbing licence 2025')).toBeNull();
    expect(screen.getByText('Plumbing licence 2025')).toBeVisible();

    const user = userEvent.setup();
    await user.click(within(change).getByRole('button', { name: 'Approve the change' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Do you want to approve this change?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Approve the change' }));
    expect(await screen.findByText('The change is approved.')).toBeVisible();
    expect(requests('approvePendingChange')).toEqual([
      expect.objectContaining({ id: PROFESSIONAL_ID, revision: 4 }),
    ]);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Change awaiting review' })).toBeNull(),
    );
  });

  it('lists the professionals whose change awaits review', async () => {
    const { transport, requests } = pendingServer();
    renderApp('/admin/professionals-list', transport);
    const user = userEvent.setup();
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Status' }),
      'Change awaiting review',
    );
    await waitFor(() =>
      expect(requests<ListProfessionalsRequest>('listProfessionals').at(-1)).toMatchObject({
        withPendingChange: true,
        state: ProfessionalState.UNSPECIFIED,
      }),
    );
  });

  it('refuses only with a reason, revoking the approved licences chosen', async () => {
    const { transport, requests } = pendingServer();
    renderApp(view, transport);
    const user = userEvent.setup();
    await user.click(within(await section()).getByRole('button', { name: 'Refuse the change' }));
    const form = await screen.findByRole('form', { name: 'Refuse the change' });
    const submit = within(form).getByRole('button', { name: 'Refuse the change' });
    await user.click(submit);
    expect(await within(form).findByText('Please give the reason for the refusal.')).toBeVisible();
    expect(requests('refusePendingChange')).toEqual([]);

    await user.type(within(form).getByLabelText(/^Reason for the refusal/), 'Expired licence');
    // Only the approved licence may be revoked, not the one waiting.
    expect(within(form).queryByRole('checkbox', { name: 'Plumbing licence 2026' })).toBeNull();
    await user.click(within(form).getByRole('checkbox', { name: 'Plumbing licence 2025' }));
    await user.click(submit);
    expect(await screen.findByText('The change is refused.')).toBeVisible();
    expect(requests('refusePendingChange')).toEqual([
      expect.objectContaining({
        id: PROFESSIONAL_ID,
        reason: 'Expired licence',
        revokeLicenceIds: ['l1'],
        revision: 4,
      }),
    ]);
  });

  it('reads in French', async () => {
    localStorage.setItem('lang', 'fr');
    renderApp(view, pendingServer().transport);
    const change = await section('Modification en attente d’examen');
    expect(within(change).getByRole('button', { name: 'Refuser la modification' })).toBeVisible();
    expect(within(change).getByRole('heading', { name: 'Nouveaux permis' })).toBeVisible();
  });
});

describe('admin: users', () => {
  it('lists users and shows one with a confirmed delete', async () => {
    const { transport, requests } = adminServer();
    const { router } = renderApp('/admin/user-list', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Casey Customer' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/view-user/${CUSTOMER_ID}`));
    // The list also shows "English" and the email, so wait for what only the user's page
    // has: its Delete button (the list leaves as the page arrives).
    const remove = await screen.findByRole('button', { name: 'Delete' });
    expect(screen.getByText('English')).toBeVisible();
    expect(screen.getByText('casey@example.ca')).toBeVisible();
    await user.click(remove);
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Do you want to delete this customer?',
    });
    expect(dialog).toHaveTextContent(
      'their open repair requests are cancelled (the professionals who quoted are told)',
    );
    expect(dialog).toHaveTextContent('shown as “Deleted customer”');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/user-list'));
    expect(requests('deleteCustomer')).toEqual([expect.objectContaining({ id: CUSTOMER_ID })]);
  });

  it('searches users by name, email or phone, the search kept in the address', async () => {
    signIn('admin', 'a1');
    const { transport, requests } = stubServer({
      listCustomers: ({ query }) => ({
        customers: query === 'nobody' ? [] : [customer()],
        nextPageToken: '',
      }),
    });
    const { router } = renderApp('/admin/user-list?q=casey', transport);
    const box = await screen.findByRole('searchbox', { name: 'Search customers' });
    expect(box).toHaveValue('casey');
    expect(await screen.findByRole('link', { name: 'Casey Customer' })).toBeVisible();
    expect(requests<ListCustomersRequest>('listCustomers')[0]).toMatchObject({ query: 'casey' });

    const user = userEvent.setup();
    await user.clear(box);
    await user.type(box, ' nobody ');
    // Asked once typing has paused, not once per key.
    await waitFor(() => expect(router.state.location.search).toBe('?q=nobody'));
    expect(await screen.findByText('No customer matches “nobody”.')).toBeVisible();
    const asked = requests<ListCustomersRequest>('listCustomers').map((r) => r.query);
    expect(asked.filter((query) => query.startsWith('n') && query !== 'nobody')).toEqual([]);

    await user.clear(box);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('link', { name: 'Casey Customer' })).toBeVisible();
  });

  it('searches in French', async () => {
    localStorage.setItem('lang', 'fr');
    signIn('admin', 'a1');
    const { transport } = stubServer({ listCustomers: () => ({ customers: [] }) });
    renderApp('/admin/user-list?q=zz', transport);
    expect(await screen.findByRole('searchbox', { name: 'Rechercher des clients' })).toBeVisible();
    expect(await screen.findByText('Aucun client ne correspond à « zz ».')).toBeVisible();
  });
});
