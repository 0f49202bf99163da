import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeToken, renderApp } from '@/test/render-app';

const signIn = (values: Record<string, string>, tokenKey: string, role: string) => {
  localStorage.setItem(
    tokenKey,
    fakeToken({ sub: 'id-1', role, iat: Math.floor(Date.now() / 1000) }),
  );
  for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value);
};

type Nav = ReturnType<typeof within>;

/** The navigation has a link named `name` to `href`. */
const expectLink = (nav: Nav, name: string, href: string) =>
  expect(nav.getByRole('link', { name })).toHaveAttribute('href', href);

const mainNav = async () => within(await screen.findByRole('navigation', { name: 'Main' }));

describe('header', () => {
  it('offers the sign-in pages to someone signed out', async () => {
    renderApp('/contact');
    const nav = await mainNav();
    expectLink(nav, 'Sign in', '/login');
    expect(nav.getByRole('link', { name: 'Professional sign-in' })).toBeVisible();
  });

  it('shows a signed-in customer their name, account link and log out instead', async () => {
    signIn({ username: 'Casey Customer' }, 'token', 'user');
    renderApp('/contact');
    const nav = await mainNav();
    expectLink(nav, 'Casey Customer, my account', '/user-account-setting');
    expectLink(nav, 'Sign out', '/user-logout');
    expect(nav.queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(nav.queryByRole('link', { name: 'Professional sign-in' })).toBeNull();
  });

  it('shows a signed-in professional their profile and log out, in French', async () => {
    signIn({ 'professional-name': 'Paule' }, 'professional-token', 'professional');
    renderApp('/fr/pas-de-page');
    const nav = within(await screen.findByRole('navigation', { name: 'Principal' }));
    expectLink(nav, 'Paule, mon profil professionnel', '/fr/view-professional-profile');
    expectLink(nav, 'Se déconnecter', '/fr/professional-logout');
  });

  it('shows an admin without a stored name the administration link', async () => {
    signIn({}, 'admin_token', 'admin');
    renderApp('/contact');
    const nav = await mainNav();
    expectLink(nav, 'administration', '/admin/professionals-list');
    expectLink(nav, 'Sign out', '/admin/logout');
  });
});
