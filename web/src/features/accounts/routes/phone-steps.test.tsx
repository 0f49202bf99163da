import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectError } from '@connectrpc/connect';
import { ErrorInfoSchema, RetryInfoSchema } from '@/gen/google/rpc/error_details_pb';
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

/** The countdown on screen (not the announcer, which says it once), if any. */
const countdown = (text = /You can ask for a new code in \d+ s\./) =>
  screen.queryAllByText(text).find((element) => !element.closest('[role="status"]'));

/** The server's refusal of a new code within the wait, naming the seconds left. */
const resendWait = (seconds: number) =>
  new ConnectError(
    `wait ${seconds} seconds before asking for a new code`,
    Code.ResourceExhausted,
    undefined,
    [
      { desc: ErrorInfoSchema, value: { reason: 'PHONE_CODE_COOLDOWN', domain: 'repairs' } },
      { desc: RetryInfoSchema, value: { retryDelay: { seconds: BigInt(seconds) } } },
    ],
  );

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
    expect(countdown()).toHaveTextContent(/You can ask for a new code in (30|29) s\./);
    expect(screen.getByRole('button', { name: 'Resend the code' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );

    await act(() => vi.advanceTimersByTimeAsync(31_000));
    await user.click(await screen.findByRole('button', { name: 'Resend the code' }));
    expect(await screen.findByText('OTP Resent: a new code is on its way.')).toBeVisible();
    expect(requests('sendPhoneCode')[1]).toMatchObject({
      countryCode: '+1',
      phoneNumber: '4035550100',
    });
  });

  it('counts down the wait the server names when it refuses a new code, then offers it again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn('customer', CUSTOMER_ID);
    let refuse = true;
    const { transport, requests } = stubServer({
      getCustomer: () => ({ customer: unverified }),
      sendPhoneCode: () => {
        if (refuse) throw resendWait(24);
        return { phone: '+14035550100', nextSendTime: timestampFromMs(Date.now() + 30_000) };
      },
    });
    const { router } = renderApp(`/phone-otp/${CUSTOMER_ID}`, transport);
    await screen.findByRole('heading', { level: 1, name: 'Verify your phone' });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(screen.getByLabelText(/^Phone number/), '403 555 0100');
    const send = screen.getByRole('button', { name: 'Send the code' });
    await user.click(send);

    const status = screen.getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('You can ask for a new code in 24 s.'));
    expect(countdown()).toHaveTextContent('You can ask for a new code in 24 s.');
    expect(screen.queryByText(/Please wait a few seconds/)).toBeNull();
    expect(send).toHaveAttribute('aria-disabled', 'true');
    expect(send).toHaveFocus();
    await user.click(send);
    expect(requests('sendPhoneCode')).toHaveLength(1);

    // The screen counts every second; the announcer keeps its first words.
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(countdown()).toHaveTextContent(/You can ask for a new code in 2[0-2] s\./);
    expect(status).toHaveTextContent('You can ask for a new code in 24 s.');
    await act(() => vi.advanceTimersByTimeAsync(22_000));
    expect(status).toHaveTextContent('You can ask for a new code now.');
    expect(countdown()).toBeUndefined();
    expect(send).not.toHaveAttribute('aria-disabled');

    refuse = false;
    await user.click(send);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/otp-verify/${CUSTOMER_ID}/14035550100`),
    );
    expect(requests('sendPhoneCode')).toHaveLength(2);
  });

  it('counts down, in French, a wait the code step forgot (a reload) when the server names it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    localStorage.setItem('lang', 'fr');
    signIn('customer', CUSTOMER_ID);
    const { transport, requests } = stubServer({
      getCustomer: () => ({ customer: unverified }),
      sendPhoneCode: () => {
        throw resendWait(17);
      },
    });
    renderApp(`/otp-verify/${CUSTOMER_ID}/14035550100`, transport);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const resend = await screen.findByRole('button', { name: 'Renvoyer le code' });
    await user.click(resend);
    const waiting = 'Vous pourrez demander un nouveau code dans 17 s.';
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(waiting));
    expect(countdown(/Vous pourrez demander un nouveau code dans \d+ s\./)).toHaveTextContent(
      waiting,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(resend).toHaveAttribute('aria-disabled', 'true');
    await user.click(resend);
    expect(requests('sendPhoneCode')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(17_000));
    expect(screen.getByRole('status')).toHaveTextContent(
      'Vous pouvez maintenant demander un nouveau code.',
    );
    expect(resend).not.toHaveAttribute('aria-disabled');
  });

  it('shows a refusal without a wait as it is', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport } = stubServer({
      getCustomer: () => ({ customer: unverified }),
      sendPhoneCode: () => {
        throw rpcError(Code.ResourceExhausted, 'PHONE_CODE_COOLDOWN');
      },
    });
    renderApp(`/otp-verify/${CUSTOMER_ID}/14035550100`, transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resend the code' }));
    expect(
      await screen.findByText('Please wait a few seconds before asking for another code.'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Resend the code' })).not.toHaveAttribute(
      'aria-disabled',
    );
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
