import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SmsUpdates } from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  customer,
  professional,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

const unverified = customer({ phoneVerified: false, phone: '' });

describe('phone step', () => {
  afterEach(() => vi.useRealTimers());

  it('checks the number for the chosen country before sending', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport, calls } = stubServer({ getCustomer: () => ({ customer: unverified }) });
    renderApp(`/phone-otp/${CUSTOMER_ID}`, transport);
    await screen.findByRole('heading', { level: 1, name: 'Verify your phone' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Phone number/), '12345');
    await user.click(screen.getByRole('button', { name: 'Send the code' }));
    expect(
      await screen.findByText('Enter a 10-digit Canadian number, such as 403 555 0100.'),
    ).toBeVisible();
    await user.selectOptions(screen.getByLabelText(/^Country code/), '+91');
    await user.click(screen.getByRole('button', { name: 'Send the code' }));
    expect(
      await screen.findByText('Enter a 10-digit Indian mobile number, such as 98765 43210.'),
    ).toBeVisible();
    expect(calls.map((call) => call.method)).toEqual(['getCustomer']);
  });

  it('sends the code with the bearer token, then counts down to the resend link', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const token = signIn('customer', CUSTOMER_ID);
    const { transport, requests, calls } = stubServer({
      getCustomer: () => ({ customer: unverified }),
      sendPhoneCode: () => ({
        phone: '+14035550100',
        nextSendTime: timestampFromMs(Date.now() + 30_000),
        expireTime: timestampFromMs(Date.now() + 600_000),
      }),
    });
    const { router } = renderApp(`/phone-otp/${CUSTOMER_ID}`, transport);
    await screen.findByRole('heading', { level: 1, name: 'Verify your phone' });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(screen.getByLabelText(/^Phone number/), '(403) 555-0100');
    await user.click(screen.getByRole('button', { name: 'Send the code' }));

    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/otp-verify/${CUSTOMER_ID}/14035550100`),
    );
    expect(requests('sendPhoneCode')[0]).toMatchObject({
      accountId: CUSTOMER_ID,
      countryCode: '+1',
      phoneNumber: '(403) 555-0100',
      smsUpdates: SmsUpdates.YES,
    });
    expect(calls.find((call) => call.method === 'sendPhoneCode')?.authorization).toBe(
      `Bearer ${token}`,
    );
    expect(
      await screen.findByText(/Enter the 4-digit code we sent to \+1.403.555.0100/),
    ).toBeVisible();
    expect(screen.getByText(/You can ask for a new code in (30|29) s\./)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Resend the code' })).toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(31_000));
    await user.click(await screen.findByRole('button', { name: 'Resend the code' }));
    expect(await screen.findByText('OTP Resent: a new code is on its way.')).toBeVisible();
    expect(requests('sendPhoneCode')[1]).toMatchObject({
      countryCode: '+1',
      phoneNumber: '4035550100',
    });
  });

  it('shows a wrong code next to the field and a verified phone leads to the thank-you page', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport, requests } = stubServer({
      getCustomer: () => ({ customer: unverified }),
      verifyPhoneCode: ({ code }) => {
        if (code !== '4321') {
          throw rpcError(Code.InvalidArgument, 'PHONE_CODE_WRONG', {
            code: 'the code is not right; 4 tries left',
          });
        }
        return { phone: '+14035550100' };
      },
    });
    const { router } = renderApp(`/otp-verify/${CUSTOMER_ID}/14035550100`, transport);
    await screen.findByRole('heading', { level: 1, name: 'Enter your code' });
    const user = userEvent.setup();
    const code = screen.getByLabelText(/^4-digit code/);
    await user.type(code, '0123');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('Enter the 4 digits of the code (the first one is not 0).'),
    ).toBeVisible();

    await user.clear(code);
    await user.type(code, '1234');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('This code is not right. Check the text and try again.'),
    ).toBeVisible();
    expect(code).toHaveFocus();

    await user.clear(code);
    await user.type(code, '4321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/thanks-signup'));
    expect(requests('verifyPhoneCode').at(-1)).toMatchObject({
      phone: '+14035550100',
      code: '4321',
    });
    expect(await screen.findByRole('link', { name: 'Create your first request' })).toBeVisible();
  });

  it('sends a customer whose phone is verified from the phone step to create a request', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport } = stubServer({ getCustomer: () => ({ customer: customer() }) });
    const { router } = renderApp(`/phone-otp/${CUSTOMER_ID}`, transport);
    await waitFor(() => expect(router.state.location.pathname).toBe('/create-request'));
  });

  it.each([
    [`/professional-phone-otp/${PROFESSIONAL_ID}`, '/professional-dashboard'],
    [`/professional-otp-verify/${PROFESSIONAL_ID}/14035550111`, '/update-professional-profile'],
  ])('sends a verified professional from %s to %s', async (from, to) => {
    signIn('professional', PROFESSIONAL_ID);
    const { transport } = stubServer({ getProfessional: () => ({ professional: professional() }) });
    const { router } = renderApp(from, transport);
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });
});
