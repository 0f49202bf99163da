import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import { Code, rpcError, stubServer } from '@/test/stub-server';

describe('password reset', () => {
  it('answers the same way whatever the email, and asks for the customer role', async () => {
    const { transport, requests } = stubServer({ requestPasswordReset: () => ({}) });
    renderApp('/forgot-password', transport);
    await screen.findByRole('heading', { level: 1, name: 'Forgot password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Email/), 'nobody@example.ca');
    await user.click(screen.getByRole('button', { name: 'Send Link' }));
    expect(
      await screen.findByText(/If an account exists for this email, a link to reset the password/),
    ).toBeVisible();
    expect(requests('requestPasswordReset')[0]).toMatchObject({
      role: Role.CUSTOMER,
      email: 'nobody@example.ca',
    });
  });

  it('says the link expired when reached with ?msg=link-expired', async () => {
    renderApp('/prof-forgot-password?msg=link-expired');
    expect(await screen.findByText(/This reset link has expired/)).toBeVisible();
  });

  it('sends an unusable link back to the forgot-password page', async () => {
    const { transport, requests } = stubServer({
      checkPasswordResetToken: () => ({ valid: false }),
    });
    const { router } = renderApp('/prof-reset-password/p1/t1', transport);
    await waitFor(() => expect(router.state.location.pathname).toBe('/prof-forgot-password'));
    expect(router.state.location.search).toBe('?msg=link-expired');
    expect(requests('checkPasswordResetToken')[0]).toMatchObject({
      role: Role.PROFESSIONAL,
      accountId: 'p1',
      token: 't1',
    });
    expect(await screen.findByText(/This reset link has expired/)).toBeVisible();
  });

  it('checks that the two passwords match, then saves and opens the login page', async () => {
    const { transport, requests } = stubServer({
      checkPasswordResetToken: () => ({ valid: true }),
      resetPassword: () => ({}),
    });
    const { router } = renderApp('/reset-password/u1/t1', transport);
    await screen.findByRole('heading', { level: 1, name: 'Reset password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^New password/), 'new-password-1');
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
    expect(await screen.findByText('The two passwords are not the same.')).toBeVisible();
    expect(requests('resetPassword')).toEqual([]);

    await user.clear(screen.getByLabelText(/^Confirm the new password/));
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(
      await screen.findByText('Your password was changed. Sign in with the new one.'),
    ).toBeVisible();
    expect(requests('resetPassword')[0]).toMatchObject({
      role: Role.CUSTOMER,
      accountId: 'u1',
      token: 't1',
      newPassword: 'new-password-1',
    });
  });

  it('goes back to the forgot-password page when the link expires while typing', async () => {
    const { transport } = stubServer({
      checkPasswordResetToken: () => ({ valid: true }),
      resetPassword: () => {
        throw rpcError(Code.FailedPrecondition, 'RESET_LINK_EXPIRED');
      },
    });
    const { router } = renderApp('/reset-password/u1/t1', transport);
    await screen.findByRole('heading', { level: 1, name: 'Reset password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^New password/), 'new-password-1');
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
    await waitFor(() => expect(router.state.location.search).toBe('?msg=link-expired'));
  });
});
