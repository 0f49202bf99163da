import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/render-app';

describe('focus on navigation', () => {
  it('leaves the first screen alone, then moves the focus to the title of each next one', async () => {
    const { router } = renderApp('/contact');
    const first = await screen.findByRole('heading', { level: 1 });
    expect(first).not.toHaveFocus();

    await act(() => router.navigate('/login'));
    const login = await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await waitFor(() => expect(login).toHaveFocus());

    await act(() => router.navigate('/'));
    const home = await screen.findByRole('heading', {
      level: 1,
      name: 'Emergency repairs, handled fast',
    });
    await waitFor(() => expect(home).toHaveFocus());
  });
});
