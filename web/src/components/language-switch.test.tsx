import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadTo } from '@/lib/browser';
import { renderApp } from '@/test/render-app';

vi.mock('@/lib/browser', () => ({ reloadTo: vi.fn() }));

/** Renders a page and lets its first render settle under fake timers. */
async function renderPage(path: string) {
  const view = renderApp(path);
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
  return view;
}

describe('language switch', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has an English and a Français button in the header, the current one pressed', async () => {
    await renderPage('/');
    const english = screen.getByRole('button', { name: 'EN English' });
    const french = screen.getByRole('button', { name: 'FR Français' });
    expect(english).toHaveAttribute('aria-pressed', 'true');
    expect(french).toHaveAttribute('aria-pressed', 'false');
    expect(french).toHaveAttribute('lang', 'fr');
  });

  it('stores fr, shows the loader, and loads /fr after 2000 ms', async () => {
    await renderPage('/');
    vi.useFakeTimers(); // from here on, time moves only when the test says so

    fireEvent.click(screen.getByRole('button', { name: 'FR Français' }));

    expect(localStorage.getItem('lang')).toBe('fr');
    expect(screen.getByRole('status')).toHaveTextContent('Passage au français…');
    expect(screen.getByRole('button', { name: 'EN English' })).toBeDisabled();

    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(reloadTo).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(reloadTo).toHaveBeenCalledExactlyOnceWith('/fr');
  });

  it('goes back to the English twin of a French page', async () => {
    await renderPage('/fr/professional');
    fireEvent.click(await screen.findByRole('button', { name: 'EN English' }));
    expect(localStorage.getItem('lang')).toBe('en');
    expect(screen.getByRole('status')).toHaveTextContent('Switching to English…');
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(reloadTo).toHaveBeenCalledExactlyOnceWith('/professional');
  });

  it('loads the French twin of any page, with its query', async () => {
    await renderPage('/contact?from=footer');
    fireEvent.click(await screen.findByRole('button', { name: 'FR Français' }));
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(reloadTo).toHaveBeenCalledExactlyOnceWith('/fr/contact?from=footer');
  });
});
