import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '@/gen/repairs/accounts/v1/accounts_pb';
import { LANGUAGE_STORAGE_KEY } from '@/lib/language';
import { renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  customer,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

describe('email confirmation link', () => {
  it('sends the token once, even in StrictMode, and sends a signed-out customer to log in', async () => {
    const { transport, requests } = stubServer({
      confirmEmail: () => ({ role: Role.CUSTOMER, accountId: CUSTOMER_ID }),
    });
    renderApp('/verify-email/tok-123', transport, { strict: true });
    expect(await screen.findByText('Your email address is confirmed.')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Confirm your email' })).toBeVisible();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(requests('confirmEmail')).toEqual([expect.objectContaining({ token: 'tok-123' })]);
  });

  it('sends a signed-in professional on to their profile', async () => {
    signIn('professional', PROFESSIONAL_ID);
    const { transport } = stubServer({
      confirmEmail: () => ({ role: Role.PROFESSIONAL, accountId: PROFESSIONAL_ID }),
    });
    renderApp('/verify-email/tok-456', transport);
    expect(await screen.findByRole('link', { name: 'Go to my profile' })).toHaveAttribute(
      'href',
      '/view-professional-profile',
    );
  });

  it('sends a signed-in customer on to their account settings, in French', async () => {
    signIn('customer', CUSTOMER_ID);
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'fr');
    const { transport } = stubServer({
      confirmEmail: () => ({ role: Role.CUSTOMER, accountId: CUSTOMER_ID }),
      getCustomer: () => ({ customer: customer() }),
    });
    // The emailed link has no /fr: the stored choice takes it to its French twin.
    const { router } = renderApp('/verify-email/tok-789', transport);
    expect(await screen.findByText('Votre adresse courriel est confirmée.')).toBeVisible();
    expect(router.state.location.pathname).toBe('/fr/verify-email/tok-789');
    expect(
      screen.getByRole('link', { name: 'Aller aux paramètres de mon compte' }),
    ).toHaveAttribute('href', '/fr/user-account-setting');
  });

  it('sends to the login page when another account of that role is signed in', async () => {
    signIn('customer', 'someone-else');
    const { transport } = stubServer({
      confirmEmail: () => ({ role: Role.CUSTOMER, accountId: CUSTOMER_ID }),
    });
    renderApp('/verify-email/tok-000', transport);
    await screen.findByText('Your email address is confirmed.');
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login',
    );
  });

  it('says an expired link leaves the account usable and how to confirm later', async () => {
    const { transport } = stubServer({
      confirmEmail: () => {
        throw rpcError(Code.FailedPrecondition, 'EMAIL_LINK_EXPIRED');
      },
    });
    renderApp('/verify-email/old', transport);
    expect(
      await screen.findByText('This confirmation link has expired or was already used.'),
    ).toBeVisible();
    expect(screen.getByText(/You can keep using your account/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Reset a customer password' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers to try again when the server cannot be reached', async () => {
    let calls = 0;
    const { transport, requests } = stubServer({
      confirmEmail: () => {
        calls += 1;
        if (calls === 1) throw rpcError(Code.Unavailable, 'UNAVAILABLE');
        return { role: Role.CUSTOMER, accountId: CUSTOMER_ID };
      },
    });
    renderApp('/verify-email/tok', transport);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Your email address is confirmed.')).toBeVisible();
    expect(requests('confirmEmail')).toHaveLength(2);
  });
});
