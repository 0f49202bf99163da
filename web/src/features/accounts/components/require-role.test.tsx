import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeToken, renderApp } from '@/test/render-app';

describe('RequireRole', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('logs the customer out when the hour runs out while the page is open', async () => {
    // The clock stops below, but the screen's code loads (a dynamic import) in real time.
    const realTimeout = globalThis.setTimeout;
    const load = () => new Promise((resolve) => realTimeout(resolve, 20));
    vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z') });
    const issuedAt = Math.floor(Date.now() / 1000) - 3590;
    localStorage.setItem('token', fakeToken({ sub: 'c1', role: 'user', iat: issuedAt }));

    const { router } = renderApp('/user-order-history');
    for (let tries = 0; tries < 100 && !screen.queryByRole('heading', { level: 1 }); tries += 1) {
      await act(load);
      await act(() => vi.advanceTimersByTimeAsync(0));
    }
    expect(screen.getByRole('heading', { level: 1, name: 'Order history' })).toBeVisible();

    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(router.state.location.pathname).toBe('/user-order-history');

    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('token')).toBeNull();
  });
});
