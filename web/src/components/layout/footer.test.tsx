import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/render-app';

describe('footer', () => {
  it.each([
    ['en', '/contact', 'Administrator sign-in', '/admin/login'],
    ['fr', '/fr', 'Connexion administrateur', '/fr/admin/login'],
  ])('links to the admin sign-in, in %s', async (language, path, name, signIn) => {
    localStorage.setItem('lang', language);
    const { router } = renderApp(path);
    await screen.findByRole('heading', { level: 1 });
    const link = within(screen.getByRole('contentinfo')).getByRole('link', { name });
    expect(link).toHaveAttribute('href', signIn);

    await userEvent.setup().click(link);
    expect(await screen.findByRole('heading', { level: 1, name })).toBeVisible();
    expect(router.state.location.pathname).toBe(signIn);
  });
});
