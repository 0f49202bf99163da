import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role, SmsUpdates } from '@/gen/repairs/accounts/v1/accounts_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { fakeToken, renderApp } from '@/test/render-app';
import { CUSTOMER_ID, Code, customer, rpcError, stubServer } from '@/test/stub-server';

const token = fakeToken({ sub: CUSTOMER_ID, role: 'customer', iat: Math.floor(Date.now() / 1000) });

async function fill(
  fields: { name?: string; email?: string; password?: string },
  submit = 'Sign up',
) {
  const user = userEvent.setup();
  if (fields.name) await user.type(screen.getByLabelText(/^Name|^Nom/), fields.name);
  if (fields.email) await user.type(screen.getByLabelText(/^Email|^Courriel/), fields.email);
  if (fields.password)
    await user.type(screen.getByLabelText(/^Password|^Mot de passe/), fields.password);
  await user.click(screen.getByRole('button', { name: submit }));
}

describe('sign-up page', () => {
  it('says what is wrong next to each field, focuses the first, and sends nothing', async () => {
    const { transport, calls } = stubServer({ signUp: () => ({}) });
    renderApp('/register', transport);
    await screen.findByRole('heading', { level: 1, name: 'Sign up' });

    await fill({ email: 'not-an-email', password: 'short' });

    expect(await screen.findByText('Please enter your name.')).toBeVisible();
    expect(
      screen.getByText('Please enter a valid email address, such as name@example.com.'),
    ).toBeVisible();
    expect(screen.getByText('Use at least 8 characters.')).toBeVisible();
    const name = screen.getByLabelText(/^Name/);
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    // The field links its error text once that text has mounted, a render later.
    await waitFor(() => expect(name).toHaveAccessibleDescription('Please enter your name.'));
    expect(calls).toEqual([]);
  });

  it('shows EMAIL_TAKEN next to the email and the other server violations next to their fields', async () => {
    const { transport } = stubServer({
      signUp: ({ email }) => {
        if (email === 'taken@example.ca') throw rpcError(Code.AlreadyExists, 'EMAIL_TAKEN');
        throw rpcError(Code.InvalidArgument, 'INVALID_ARGUMENT', {
          password: 'this password is too common',
        });
      },
    });
    renderApp('/register', transport);
    await screen.findByRole('heading', { level: 1, name: 'Sign up' });

    await fill({ name: 'Ada', email: 'taken@example.ca', password: 'long-enough-1' });
    expect(
      await screen.findByText(
        'An account with this email already exists. Sign in, or use another email.',
      ),
    ).toBeVisible();
    expect(screen.getByLabelText(/^Email/)).toHaveFocus();

    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^Email/));
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.ca');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('this password is too common')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows an unknown reason with the server message, in the page', async () => {
    const { transport } = stubServer({
      signUp: () => {
        throw rpcError(Code.Internal, 'SOMETHING_NEW', {}, 'a brand new failure');
      },
    });
    renderApp('/register', transport);
    await screen.findByRole('heading', { level: 1, name: 'Sign up' });
    await fill({ name: 'Ada', email: 'ada@example.ca', password: 'long-enough-1' });
    expect(await screen.findByRole('alert')).toHaveTextContent('a brand new failure');
  });

  it('creates the account in French from /fr/register, stores the session and opens the phone step', async () => {
    const { transport, requests } = stubServer({
      signUp: () => ({
        session: { accessToken: token, role: Role.CUSTOMER, accountId: CUSTOMER_ID },
        account: { case: 'customer', value: customer({ phoneVerified: false, phone: '' }) },
      }),
      getCustomer: () => ({
        customer: customer({ phoneVerified: false, phone: '', smsUpdates: SmsUpdates.NOT_ASKED }),
      }),
    });
    const { router } = renderApp('/fr/register', transport);
    await screen.findByRole('heading', { level: 1, name: 'Inscription' });

    await fill({ name: ' Ada ', email: 'ada@example.ca', password: 'long-enough-1' }, 'S’inscrire');

    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/fr/phone-otp/${CUSTOMER_ID}`),
    );
    expect(requests('signUp')[0]).toMatchObject({
      role: Role.CUSTOMER,
      name: 'Ada',
      email: 'ada@example.ca',
      language: Language.FR,
    });
    expect(localStorage.getItem('token')).toBe(token);
    expect(localStorage.getItem('lang')).toBe('fr');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Vérifiez votre téléphone' }),
    ).toBeVisible();
  });

  it('shows Google and, on the French page only, Facebook when the server configures them', async () => {
    const { transport } = stubServer({
      getSignInOptions: () => ({ googleClientId: '', facebookAppId: 'fb-app' }),
    });
    renderApp('/fr/register', transport);
    expect(await screen.findByRole('button', { name: 'Continuer avec Facebook' })).toBeVisible();
  });

  it('shows no social button when the options cannot be read', async () => {
    renderApp('/register');
    await screen.findByRole('heading', { level: 1, name: 'Sign up' });
    expect(screen.queryByText('or')).toBeNull();
  });
});
