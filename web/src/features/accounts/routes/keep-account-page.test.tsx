import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Role } from '@/gen/repairs/accounts/v1/accounts_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import type { Language as PageLanguage } from '@/lib/language';
import { renderApp, renderInApp } from '@/test/render-app';
import { Code, rpcError, stubServer } from '@/test/stub-server';
import { KeepAccountPage } from './keep-account-page';

/** The page at its path (the app's routes table mounts it at /keep-account/:token). */
function renderPage(
  server: ReturnType<typeof stubServer>,
  path = '/keep-account/tok-123',
  language: PageLanguage = 'en',
) {
  const router = createMemoryRouter(
    [
      { path: '/keep-account/:token', element: <KeepAccountPage /> },
      { path: '/fr/keep-account/:token', element: <KeepAccountPage /> },
    ],
    { initialEntries: [path] },
  );
  renderInApp(<RouterProvider router={router} />, server.transport, language);
  return router;
}

describe('the link that keeps a closed account', () => {
  it('does nothing on opening, and keeps the account when the button is pressed', async () => {
    const server = stubServer({
      cancelAccountDeletion: () => ({ role: Role.PROFESSIONAL, language: Language.EN }),
    });
    renderPage(server);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Keep your account' }),
    ).toBeVisible();
    const keep = screen.getByRole('button', { name: 'Keep my account' });
    // Mail scanners open links: opening alone sends nothing.
    expect(server.calls).toEqual([]);

    await userEvent.setup().click(keep);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your account is kept. Sign in as usual.',
    );
    expect(server.requests('cancelAccountDeletion')).toEqual([
      expect.objectContaining({ token: 'tok-123' }),
    ]);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login-as-professional',
    );
    expect(screen.queryByRole('button', { name: 'Keep my account' })).toBeNull();
  });

  it('leads a customer to the customer sign-in, in French', async () => {
    const server = stubServer({
      cancelAccountDeletion: () => ({ role: Role.CUSTOMER, language: Language.FR }),
    });
    renderPage(server, '/fr/keep-account/tok-fr', 'fr');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Garder mon compte' }));
    expect(
      await screen.findByText('Votre compte est conservé. Connectez-vous comme d’habitude.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/fr/login');
  });

  it('says so when the link no longer keeps an account', async () => {
    const server = stubServer({
      cancelAccountDeletion: () => {
        throw rpcError(Code.InvalidArgument, 'ACCOUNT_DELETION_LINK_INVALID', {
          token: 'this link no longer keeps an account',
        });
      },
    });
    renderPage(server);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Keep my account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link no longer keeps an account: it was used already, or the account was erased.',
    );
    expect(screen.queryByRole('button', { name: 'Keep my account' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Customer sign-in' })).toHaveAttribute(
      'href',
      '/login',
    );
  });

  it('offers to try again when the server cannot be reached', async () => {
    let calls = 0;
    const server = stubServer({
      cancelAccountDeletion: () => {
        calls += 1;
        if (calls === 1) throw rpcError(Code.Unavailable, 'UNAVAILABLE');
        return { role: Role.CUSTOMER, language: Language.EN };
      },
    });
    renderPage(server);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Keep my account' }));
    expect(await screen.findByRole('alert')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Keep my account' }));
    expect(await screen.findByText('Your account is kept. Sign in as usual.')).toBeVisible();
  });
});

describe('signing in to a closed account', () => {
  it('says the account is closed and how to keep it', async () => {
    const { transport } = stubServer({
      logIn: () => {
        throw rpcError(Code.FailedPrecondition, 'ACCOUNT_CLOSED');
      },
    });
    renderApp('/login', transport);
    const main = within(await screen.findByRole('main'));
    const user = userEvent.setup();
    await user.type(main.getByLabelText(/^Email/), 'casey@example.ca');
    await user.type(main.getByLabelText(/^Password/), 'a-password');
    await user.click(main.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This account is closed and waits to be erased. To keep it, follow the link in the email we sent when it was closed.',
    );
  });
});
