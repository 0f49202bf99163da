import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeToken, renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  customer,
  lastingSession,
  rpcError,
  signInLasting,
  stubServer,
} from '@/test/stub-server';

const HOUR_MS = 3600 * 1000;

/** Real time, for the screens' code to load (dynamic imports) while the clock is fake. */
const realTimeout = globalThis.setTimeout;

async function settle() {
  await act(() => new Promise((resolve) => realTimeout(resolve, 20)));
  await act(() => vi.advanceTimersByTimeAsync(0));
}

async function openCreateRequest(transport = stubServer().transport) {
  const view = renderApp('/create-request', transport);
  for (
    let tries = 0;
    tries < 200 && !screen.queryByLabelText(/What do you need to fix/);
    tries += 1
  ) {
    await settle();
  }
  return view;
}

async function openOrderHistory() {
  const view = renderApp('/user-order-history');
  for (let tries = 0; tries < 200 && !screen.queryByRole('heading', { level: 1 }); tries += 1) {
    await settle();
  }
  expect(screen.getByRole('heading', { level: 1, name: 'Order history' })).toBeVisible();
  return view;
}

const description = () => screen.getByLabelText<HTMLTextAreaElement>(/What do you need to fix/);

describe('RequireRole', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends a customer whose token reached its exp (no refresh token) to log in, saying why', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z'), shouldAdvanceTime: true });
    const exp = Math.floor(Date.now() / 1000) + 10;
    localStorage.setItem('token', fakeToken({ sub: 'c1', role: 'user', iat: exp - 3600, exp }));
    const { router } = await openOrderHistory();

    await act(() => vi.advanceTimersByTimeAsync(11_000));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(await screen.findByText('Your session expired while you were away.')).toBeVisible();
  });

  it('keeps the page past the first hour when the server’s sessions last 2 hours', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z'), shouldAdvanceTime: true });
    const iat = Math.floor(Date.now() / 1000);
    localStorage.setItem('token', fakeToken({ sub: 'c1', role: 'user', iat, exp: iat + 7200 }));
    const { router } = await openOrderHistory();

    await act(() => vi.advanceTimersByTimeAsync(HOUR_MS + 5 * 60_000));
    expect(router.state.location.pathname).toBe('/user-order-history');
    expect(localStorage.getItem('token')).not.toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(HOUR_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('renews a lasting session silently before the hour ends: the page and its text stay', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z'), shouldAdvanceTime: true });
    signInLasting('customer', CUSTOMER_ID);
    const refreshSession = vi.fn(() => ({
      session: lastingSession('customer', CUSTOMER_ID, 'refresh-2'),
    }));
    const { transport } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      refreshSession,
    });
    const { router } = await openCreateRequest(transport);
    fireEvent.change(description(), { target: { value: 'Burst pipe in the basement' } });

    await act(() => vi.advanceTimersByTimeAsync(HOUR_MS + 5 * 60_000));
    await waitFor(() => expect(localStorage.getItem('refresh-token')).toBe('refresh-2'));
    expect(refreshSession).toHaveBeenCalledOnce();
    expect(refreshSession).toHaveBeenCalledWith(
      expect.objectContaining({ refreshToken: 'refresh-1' }),
      expect.anything(),
    );
    expect(router.state.location.pathname).toBe('/create-request');
    expect(description().value).toBe('Burst pipe in the basement');
  });

  it('says why when the renewal is refused, and brings the person back with their text', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z'), shouldAdvanceTime: true });
    signInLasting('customer', CUSTOMER_ID);
    const { transport } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      refreshSession: () => {
        throw rpcError(Code.Unauthenticated, 'SESSION_REVOKED');
      },
      logIn: () => ({
        session: lastingSession('customer', CUSTOMER_ID, 'refresh-9'),
        account: { case: 'customer', value: customer() },
      }),
    });
    const { router } = await openCreateRequest(transport);
    fireEvent.change(description(), { target: { value: 'Water under the sink' } });

    await act(() => vi.advanceTimersByTimeAsync(HOUR_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText(/Your session was ended/)).toBeVisible();
    expect(screen.getByText(/What you were typing is kept/)).toBeVisible();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('refresh-token')).toBeNull();

    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'casey@example.ca' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'a-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/create-request'));
    for (
      let tries = 0;
      tries < 200 && !screen.queryByLabelText(/What do you need to fix/);
      tries += 1
    ) {
      await settle();
    }
    expect(description().value).toBe('Water under the sink');
    expect(localStorage.getItem('refresh-token')).toBe('refresh-9');
  });
});
