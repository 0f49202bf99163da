import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SmsUpdates } from '@/gen/repairs/accounts/v1/accounts_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { renderApp } from '@/test/render-app';
import { CUSTOMER_ID, Code, customer, rpcError, signIn, stubServer } from '@/test/stub-server';

describe('My Profile (customer)', () => {
  it('saves the changes and opens the confirmation page', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport, requests } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      updateCustomer: (request) => ({ customer: customer({ name: request.name }) }),
    });
    const { router } = renderApp('/user-account-setting', transport);
    await screen.findByRole('heading', { level: 1, name: 'My profile' });
    const user = userEvent.setup();
    const name = await screen.findByLabelText(/^Name/);
    expect(name).toHaveValue('Casey Customer');
    expect(screen.getByRole('link', { name: 'Change your password' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    await user.clear(name);
    await user.type(name, 'Casey Renamed');
    await user.selectOptions(screen.getByLabelText('Preferred language'), 'fr');
    await user.click(screen.getByRole('checkbox', { name: 'Updates by text' }));
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/user-profile-updated'));
    expect(requests('updateCustomer')[0]).toMatchObject({
      id: CUSTOMER_ID,
      name: 'Casey Renamed',
      email: 'casey@example.ca',
      language: Language.FR,
      smsUpdates: SmsUpdates.NO,
    });
    expect(await screen.findByText('Your profile was updated.')).toBeVisible();
  });

  it('shows EMAIL_TAKEN next to the email', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      updateCustomer: () => {
        throw rpcError(Code.AlreadyExists, 'EMAIL_TAKEN');
      },
    });
    renderApp('/user-account-setting', transport);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Update Profile' }));
    expect(
      await screen.findByText(
        'An account with this email already exists. Sign in, or use another email.',
      ),
    ).toBeVisible();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('customer area gate', () => {
  it('sends a customer without a verified phone to the phone step', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport } = stubServer({
      getCustomer: () => ({ customer: customer({ phoneVerified: false, phone: '' }) }),
    });
    const { router } = renderApp('/user-dashboard', transport);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/phone-otp/${CUSTOMER_ID}`));
  });

  it('asks once whether the customer wants SMS updates, and records the answer', async () => {
    signIn('customer', CUSTOMER_ID);
    let sms: SmsUpdates = SmsUpdates.NOT_ASKED;
    const { transport, requests } = stubServer({
      getCustomer: () => ({ customer: customer({ smsUpdates: sms }) }),
      updateSmsPreference: (request) => {
        sms = request.smsUpdates;
        return { smsUpdates: sms };
      },
    });
    renderApp('/user-dashboard', transport);
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Do you wish to receive updates by text?',
    });
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests('updateSmsPreference')[0]).toMatchObject({
      accountId: CUSTOMER_ID,
      smsUpdates: SmsUpdates.YES,
    });
  });

  it('sends the customer to log in, once and centrally, when an expired session cannot be renewed', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport, calls } = stubServer({
      getCustomer: () => {
        throw rpcError(Code.Unauthenticated, 'SESSION_EXPIRED');
      },
    });
    const { router } = renderApp('/user-account-setting', transport);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(calls[0]?.authorization).toMatch(/^Bearer /);
    expect(await screen.findByText('Your session expired while you were away.')).toBeVisible();
  });
});
