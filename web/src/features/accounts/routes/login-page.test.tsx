import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProfessionalState, Role, type Professional } from '@/gen/repairs/accounts/v1/accounts_pb';
import { fakeToken, renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  customer,
  professional,
  rpcError,
  stubServer,
} from '@/test/stub-server';

const tokenFor = (sub: string, role: string) =>
  fakeToken({ sub, role, iat: Math.floor(Date.now() / 1000) });

async function logIn(email = 'someone@example.ca', password = 'a-password', submit = 'Sign in') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Email/), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: submit }));
}

function professionalServer(pro: Professional) {
  return stubServer({
    logIn: () => ({
      session: {
        accessToken: tokenFor(pro.id, 'professional'),
        role: Role.PROFESSIONAL,
        accountId: pro.id,
      },
      account: { case: 'professional', value: pro },
    }),
    getProfessional: () => ({ professional: pro }),
  });
}

describe('log-in pages', () => {
  it('says "Email/Password Mismatch" in the page for wrong credentials', async () => {
    const { transport } = stubServer({
      logIn: () => {
        throw rpcError(Code.Unauthenticated, 'INVALID_CREDENTIALS');
      },
    });
    renderApp('/login', transport);
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await logIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Email/Password Mismatch');
  });

  it('asks for both fields before calling the server', async () => {
    const { transport, calls } = stubServer({ logIn: () => ({}) });
    renderApp('/login', transport);
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Please enter your email address.')).toBeVisible();
    expect(screen.getByText('Please enter your password.')).toBeVisible();
    expect(calls).toEqual([]);
  });

  it('sends a verified customer to create a request, with the token stored', async () => {
    const token = tokenFor(CUSTOMER_ID, 'customer');
    const { transport, requests } = stubServer({
      logIn: () => ({
        session: { accessToken: token, role: Role.CUSTOMER, accountId: CUSTOMER_ID },
        account: { case: 'customer', value: customer() },
      }),
      getCustomer: () => ({ customer: customer() }),
    });
    const { router } = renderApp('/login', transport);
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await logIn('casey@example.ca', 'a-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/create-request'));
    expect(requests('logIn')[0]).toMatchObject({ role: Role.CUSTOMER, email: 'casey@example.ca' });
    expect(localStorage.getItem('token')).toBe(token);
    expect(localStorage.getItem('username')).toBe('Casey Customer');
  });

  it.each([
    ['phone not verified', { phoneVerified: false }, `/professional-phone-otp/${PROFESSIONAL_ID}`],
    ['no profile', { profile: undefined }, '/update-professional-profile'],
    ['waiting', { state: ProfessionalState.WAITING_FOR_APPROVAL }, '/waiting-for-approval'],
    [
      'denied',
      { state: ProfessionalState.DENIED, denialReason: 'Licence unreadable' },
      '/disapproved-professional',
    ],
    [
      'profile updated',
      { state: ProfessionalState.PROFILE_UPDATED },
      '/waiting-for-profile-review',
    ],
    ['approved', { state: ProfessionalState.APPROVED }, '/professional-dashboard'],
  ] as const)('sends a professional (%s) to %s', async (_case, fields, path) => {
    const { transport } = professionalServer(professional(fields));
    const { router } = renderApp('/login-as-professional', transport);
    await screen.findByRole('heading', { level: 1, name: 'Professional sign-in' });
    await logIn();
    await waitFor(() => expect(router.state.location.pathname).toBe(path));
    expect(localStorage.getItem('professional-token')).not.toBeNull();
  });

  it('stores the denial reason and shows it on the denied page', async () => {
    const { transport } = professionalServer(
      professional({ state: ProfessionalState.DENIED, denialReason: 'Licence unreadable' }),
    );
    renderApp('/login-as-professional', transport);
    await screen.findByRole('heading', { level: 1, name: 'Professional sign-in' });
    await logIn();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Registration denied' }),
    ).toBeVisible();
    expect(screen.getByText('Licence unreadable')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Update Details' })).toHaveAttribute(
      'href',
      '/update-professional-profile',
    );
    expect(localStorage.getItem('professional-denial-reason')).toBe('Licence unreadable');
  });

  it('signs the admin in and opens the professionals list', async () => {
    const { transport } = stubServer({
      logIn: () => ({
        session: { accessToken: tokenFor('a1', 'admin'), role: Role.ADMIN, accountId: 'a1' },
        account: { case: 'admin', value: { id: 'a1', name: 'Root', email: 'admin@example.ca' } },
      }),
      listProfessionals: () => ({ professionals: [] }),
    });
    const { router } = renderApp('/admin', transport);
    await screen.findByRole('heading', { level: 1, name: 'Administrator sign-in' });
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull();
    await logIn('admin@example.ca', 'secret');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/professionals-list'));
    expect(await screen.findByText('No Records Found')).toBeVisible();
    expect(localStorage.getItem('admin_name')).toBe('Root');
  });

  it('sends a signed-in professional away from the login page to the dashboard', async () => {
    localStorage.setItem('professional-token', tokenFor(PROFESSIONAL_ID, 'professional'));
    localStorage.setItem('professional-address', '100 7 Ave SW');
    const { router } = renderApp('/login-as-professional');
    await waitFor(() => expect(router.state.location.pathname).toBe('/professional-dashboard'));
  });
});
