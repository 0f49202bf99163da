import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '@/gen/repairs/accounts/v1/accounts_pb';
import type * as Browser from '@/lib/browser';
import { fakeToken, renderApp } from '@/test/render-app';
import { CUSTOMER_ID, Code, customer, rpcError, stubServer } from '@/test/stub-server';

// The providers' scripts are outside the test: they "load" at once, and a stand-in for
// Google Identity Services draws a button that hands over an ID token.
vi.mock('@/lib/browser', async (original) => ({
  ...(await original<typeof Browser>()),
  loadScript: () => Promise.resolve(),
}));

const ID_TOKEN = 'google-id-token';

beforeEach(() => {
  let callback: (response: { credential: string }) => void = () => {};
  Object.assign(window, {
    google: {
      accounts: {
        id: {
          initialize: (options: { callback: typeof callback }) => {
            callback = options.callback;
          },
          renderButton: (parent: HTMLElement) => {
            const button = document.createElement('button');
            button.textContent = 'Sign in with Google';
            button.onclick = () => callback({ credential: ID_TOKEN });
            parent.replaceChildren(button);
          },
        },
      },
    },
  });
});

afterEach(() => {
  Reflect.deleteProperty(window, 'google');
});

const session = () => ({
  accessToken: fakeToken({
    sub: CUSTOMER_ID,
    role: 'customer',
    iat: Math.floor(Date.now() / 1000),
  }),
  role: Role.CUSTOMER,
  accountId: CUSTOMER_ID,
});

/** Google sign-in that wants `rightPassword` for the existing, unconfirmed account. */
function linkingServer(rightPassword: string) {
  return stubServer({
    getSignInOptions: () => ({ googleClientId: 'client-id', facebookAppId: '' }),
    signInWithGoogle: ({ password }) => {
      if (password === '') throw rpcError(Code.FailedPrecondition, 'SOCIAL_LINK_NEEDS_PASSWORD');
      if (password !== rightPassword) throw rpcError(Code.Unauthenticated, 'INVALID_CREDENTIALS');
      return { session: session(), created: false };
    },
    getCustomer: () => ({ customer: customer() }),
  });
}

describe('social sign-in onto an existing account', () => {
  it('asks for the account password once, shows a wrong one beside the field, then links', async () => {
    const { transport, requests } = linkingServer('right-pw');
    const { router } = renderApp('/login', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in with Google' }));

    expect(await screen.findByText('This email already has an account')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Sign in with Google' })).toBeNull();
    const field = screen.getByLabelText(/^Password of that account/);
    await user.type(field, 'wrong-pw');
    await user.click(screen.getByRole('button', { name: 'Link and sign in' }));
    const wrong = await screen.findByText(/Email\/Password Mismatch/);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(wrong.id);

    await user.clear(field);
    await user.type(field, 'right-pw');
    await user.click(screen.getByRole('button', { name: 'Link and sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/create-request'));
    expect(localStorage.getItem('token')).not.toBeNull();
    expect(requests('signInWithGoogle')).toEqual([
      expect.objectContaining({ idToken: ID_TOKEN, password: '' }),
      expect.objectContaining({ idToken: ID_TOKEN, password: 'wrong-pw' }),
      expect.objectContaining({ idToken: ID_TOKEN, password: 'right-pw' }),
    ]);
    // Three forms filled in by typing: slow on a busy machine.
  }, 15_000);

  it('asks for the password in French and goes back to the buttons on cancel', async () => {
    const { transport, calls } = linkingServer('right-pw');
    renderApp('/fr/login', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in with Google' }));
    expect(await screen.findByText('Ce courriel a déjà un compte')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Lier et se connecter' }));
    expect(await screen.findByText('Veuillez entrer votre mot de passe.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toBeVisible();
    expect(calls.filter((call) => call.method === 'signInWithGoogle')).toHaveLength(1);
  });
});
