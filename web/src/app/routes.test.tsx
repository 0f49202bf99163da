import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { matchRoutes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '@/gen/repairs/accounts/v1/accounts_pb';
import { TEST_SESSION_SECONDS, fakeToken, renderApp } from '@/test/render-app';
import { CUSTOMER_ID, customer, stubServer } from '@/test/stub-server';
import { NOT_FOUND_SAMPLE_PATH, fillPattern, routeViews } from './route-views';
import { routes } from './routes';

/** The specs' "Full route table", with sample values for the parameters. */
const SPEC_ROUTES = `
  / /professional /fr /fr/professional /register /fr/register /login /fr/login /admin
  /forgot-password /reset-password/u1/t1 /prof-forgot-password /prof-reset-password/u1/t1
  /terms-and-conditions /privacy-policy /contact
  /register-as-professional /fr/register-as-professional /login-as-professional
  /fr/login-as-professional /professional-phone-otp/p1 /professional-otp-verify
  /professional-otp-verify/p1/14035550100 /professional-thanks-signup /waiting-for-approval
  /waiting-for-profile-review /disapproved-professional /professional-profile
  /update-professional-profile /update-professional-licence /view-professional-profile
  /profile-updated /stripe-connect /purchase-membership/p1 /block-card /professional-dashboard
  /professional-active-requests /professional-order-history /professional-logout
  /phone-otp/u1 /otp-verify/u1/14035550100 /thanks-signup /create-request /request-created
  /request-list /edit-request/r1 /delete-request/r1 /user-view-request/r1 /application-list/r1
  /view-application/a1 /hire/a1 /hired-successfully /user-active-requests
  /user-completed-requests /user-order-history /user-account-setting /user-profile-updated
  /user-dashboard /user-logout /submit-review/p1/r1 /view-professional/p1 /view-user/u1
  /request-apply/r1 /view-request/r1 /applied-requests /completed-requests /pending-requests
  /request-applications-list
  /admin/home /admin/phome /admin/frhome /admin/frphome /admin/logout /admin/professionals-list
  /admin/view-professional/p1 /admin/approve-professional/p1 /admin/disapprove-professional/p1
  /admin/user-list /admin/request-list /admin/view-request/r1 /admin/order-history
  /admin/add-service /admin/service-list /admin/edit-service/s1 /admin/delete-service/s1
  /admin/create-coupon /admin/coupon-list /admin/checkout-page /admin/login
`
  .trim()
  .split(/\s+/);

const nowSeconds = () => Math.floor(Date.now() / 1000);

const signIn = (key: string, role: string, issuedSecondsAgo = 0, claims = {}) =>
  localStorage.setItem(
    key,
    fakeToken({ sub: 'id-1', role, iat: nowSeconds() - issuedSecondsAgo, ...claims }),
  );

describe('routes table', () => {
  it.each(SPEC_ROUTES)('has a route of its own for %s', (path) => {
    const leaf = matchRoutes(routes, path)?.at(-1);
    expect(leaf?.route.path).toBeDefined();
    expect(leaf?.route.path).not.toBe('*');
  });

  it('has a French twin under /fr for every page, behind the same guards', () => {
    const samples = {
      id: 'x1',
      phone: '14035550100',
      token: 't',
      req_id: 'r1',
      disputeId: 'd1',
    };
    const patterns = routeViews(routes)
      .map((view) => view.pattern)
      .filter((pattern) => pattern !== NOT_FOUND_SAMPLE_PATH);
    expect(patterns.length).toBeGreaterThan(SPEC_ROUTES.length);
    for (const pattern of patterns) {
      const path = fillPattern(pattern, samples);
      const english = matchRoutes(routes, path)!;
      const french = matchRoutes(routes, path === '/' ? '/fr' : `/fr${path}`)!;
      const leaf = french.at(-1)!.route.path;
      expect(leaf).toBe(pattern === '/' ? '/fr' : `/fr${pattern}`);
      // The same layouts and guards, level by level, down to the page.
      expect(french.slice(0, -1).map((match) => match.route.element)).toEqual(
        english.slice(0, -1).map((match) => match.route.element),
      );
    }
  });

  it('shows a not-found page with a link home for an unknown path', async () => {
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it('shows the not-found page in French under /fr', async () => {
    renderApp('/fr/pas-de-page');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Page introuvable' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Aller à la page d’accueil' })).toHaveAttribute(
      'href',
      '/fr',
    );
  });
});

describe('language redirects', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const frenchBrowser = () =>
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-CA', 'en-CA']);

  it.each([
    ['/', '/fr', 'Réparations d’urgence, réglées rapidement'],
    ['/professional', '/fr/professional', undefined],
    ['/login', '/fr/login', 'Connexion'],
    ['/terms-and-conditions', '/fr/terms-and-conditions', 'Conditions générales'],
    ['/contact', '/fr/contact', 'Nous joindre'],
    ['/admin/login', '/fr/admin/login', 'Connexion administrateur'],
  ])('sends %s to %s when French is stored', async (from, to, heading) => {
    localStorage.setItem('lang', 'fr');
    const { router } = renderApp(from);
    await screen.findByRole('heading', { level: 1, name: heading });
    expect(router.state.location.pathname).toBe(to);
    expect(document.documentElement.lang).toBe('fr');
  });

  it('keeps the query and the fragment on the way to the French twin', async () => {
    localStorage.setItem('lang', 'fr');
    const { router } = renderApp('/contact?from=email#form');
    await screen.findByRole('heading', { level: 1, name: 'Nous joindre' });
    expect(router.state.location).toMatchObject({
      pathname: '/fr/contact',
      search: '?from=email',
      hash: '#form',
    });
  });

  it('keeps / in English when English is stored', async () => {
    localStorage.setItem('lang', 'en');
    const { router } = renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    expect(router.state.location.pathname).toBe('/');
  });

  it("follows a French browser when no language is stored (an email's link)", async () => {
    frenchBrowser();
    const { router } = renderApp('/reset-password/u1/t1');
    await screen.findByRole('heading', { level: 1 });
    expect(router.state.location.pathname).toBe('/fr/reset-password/u1/t1');
    expect(document.documentElement.lang).toBe('fr');
  });

  it('keeps the stored English over a French browser', async () => {
    frenchBrowser();
    localStorage.setItem('lang', 'en');
    const { router } = renderApp('/terms-and-conditions');
    await screen.findByRole('heading', { level: 1, name: 'Terms and conditions' });
    expect(router.state.location.pathname).toBe('/terms-and-conditions');
  });

  it('keeps a French page in French when English is stored', async () => {
    localStorage.setItem('lang', 'en');
    const { router } = renderApp('/fr/contact');
    await screen.findByRole('heading', { level: 1, name: 'Nous joindre' });
    expect(router.state.location.pathname).toBe('/fr/contact');
    const footer = within(screen.getByRole('contentinfo'));
    expect(footer.getByRole('link', { name: 'Conditions générales' })).toHaveAttribute(
      'href',
      '/fr/terms-and-conditions',
    );
  });
});

describe('a French reader', () => {
  it("goes from the hero's call to action to the French sign-in, and on in French once signed in", async () => {
    const token = fakeToken({
      sub: CUSTOMER_ID,
      role: 'customer',
      iat: Math.floor(Date.now() / 1000),
    });
    const { transport } = stubServer({
      logIn: () => ({
        session: { accessToken: token, role: Role.CUSTOMER, accountId: CUSTOMER_ID },
        account: { case: 'customer', value: customer() },
      }),
      getCustomer: () => ({ customer: customer() }),
    });
    const { router } = renderApp('/fr', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Demander une réparation' }));

    // Signed out, the request form's guard sends them to sign in: in French.
    expect(await screen.findByRole('heading', { level: 1, name: 'Connexion' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/fr/login');
    expect(screen.getByText('Pas encore de compte?')).toBeVisible();
    expect(screen.queryByText('No account yet?')).toBeNull();
    expect(screen.getByRole('link', { name: 'S’inscrire' })).toHaveAttribute(
      'href',
      '/fr/register',
    );

    await user.type(screen.getByLabelText(/^Courriel/), 'casey@example.ca');
    await user.type(screen.getByLabelText(/^Mot de passe/), 'a-password');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Créer une demande' }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe('/fr/create-request');
    const menu = within(screen.getAllByRole('navigation', { name: 'Menu client' })[0]!);
    for (const link of menu.getAllByRole('link')) {
      expect(link.getAttribute('href')).toMatch(/^\/fr\//);
    }
  });

  it.each([
    ['Nous joindre', '/fr/contact', 'Nous joindre'],
    ['Conditions générales', '/fr/terms-and-conditions', 'Conditions générales'],
    [
      'Protection des renseignements personnels',
      '/fr/privacy-policy',
      'Protection des renseignements personnels',
    ],
    ['Connexion administrateur', '/fr/admin/login', 'Connexion administrateur'],
  ])('follows the footer’s “%s” to %s, in French', async (name, path, heading) => {
    const { router } = renderApp('/fr');
    const footer = within(await screen.findByRole('contentinfo'));
    await userEvent.setup().click(footer.getByRole('link', { name }));
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(router.state.location.pathname).toBe(path);
  });

  it.each([
    ['/fr/user-dashboard', '/fr/login', 'Connexion'],
    ['/fr/create-request', '/fr/login', 'Connexion'],
    ['/fr/request-list', '/fr/login-as-professional', 'Connexion professionnel'],
    ['/fr/admin/coupon-list', '/fr/admin', 'Connexion administrateur'],
  ])('is sent by the guard of %s to %s, in French', async (from, to, heading) => {
    const { router } = renderApp(from);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(router.state.location.pathname).toBe(to);
  });

  it('whose session ended signs in again in French, told why', async () => {
    signIn('token', 'user', TEST_SESSION_SECONDS);
    const { router } = renderApp('/fr/user-dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Connexion' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/fr/login');
    expect(screen.getByText('Votre session a expiré pendant votre absence.')).toBeVisible();
  });

  it('finds the admin area in French: its redirect and every link of its menu', async () => {
    signIn('admin_token', 'admin');
    const { router } = renderApp('/fr/admin/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Professionnels' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/fr/admin/professionals-list');
    const menu = within(screen.getAllByRole('navigation', { name: 'Menu d’administration' })[0]!);
    const links = menu.getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(links).toHaveLength(21);
    for (const href of links) expect(href).toMatch(/^\/fr\/admin\//);
  });
});

describe('page shell', () => {
  it('has a skip link, the header links, the footer links and the landmarks', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute(
      'href',
      '#main-content',
    );
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
    const header = screen.getByRole('banner');
    const mainNav = within(header).getByRole('navigation', { name: 'Main' });
    expect(within(mainNav).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(within(mainNav).getByRole('link', { name: 'Professional sign-in' })).toHaveAttribute(
      'href',
      '/login-as-professional',
    );
    expect(within(mainNav).getByRole('link', { name: 'For professionals' })).toHaveAttribute(
      'href',
      '/professional',
    );
    const footer = within(screen.getByRole('contentinfo')).getByRole('navigation', {
      name: 'Footer',
    });
    expect(
      within(footer)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/contact', '/terms-and-conditions', '/privacy-policy']);
  });
});

describe('signed-in areas', () => {
  it.each([
    ['/user-dashboard', '/login'],
    ['/request-list', '/login-as-professional'],
    ['/admin/coupon-list', '/admin'],
  ])('sends a visitor without a token from %s to %s', async (from, to) => {
    const { router } = renderApp(from);
    await screen.findByRole('heading', { level: 1 });
    expect(router.state.location.pathname).toBe(to);
  });

  it.each(['/admin', '/admin/login'])('signs an admin in at %s', async (path) => {
    renderApp(path);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Administrator sign-in' }),
    ).toBeVisible();
  });

  it('sends a signed-in admin from /admin/login to the professionals list', async () => {
    signIn('admin_token', 'admin');
    const { router } = renderApp('/admin/login');
    await screen.findByRole('heading', { level: 1 });
    expect(router.state.location.pathname).toBe('/admin/professionals-list');
  });

  it('sends a customer whose token reached its exp to sign in again', async () => {
    signIn('token', 'user', TEST_SESSION_SECONDS);
    localStorage.setItem('username', 'Sam');
    const { router } = renderApp('/user-dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByText('Your session expired while you were away.')).toBeVisible();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('username')).toBeNull();
  });

  it('shows the customer menu of the specs', async () => {
    signIn('token', 'user');
    renderApp('/user-dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const menu = screen.getAllByRole('navigation', { name: 'Customer menu' })[0]!;
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([
      '/user-dashboard',
      '/create-request',
      '/pending-requests',
      '/user-messages',
      '/request-applications-list',
      '/user-active-requests',
      '/user-completed-requests',
      '/user-order-history',
      '/user-account-setting',
      '/user-logout',
    ]);
    expect(within(menu).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // Inside an area the header keeps the language switch but not the public links.
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.getByRole('button', { name: 'FR Français' })).toBeVisible();
  });

  it('sends a signed-in customer away from the login page', async () => {
    signIn('token', 'user');
    const { router } = renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: 'Create request' });
    expect(router.state.location.pathname).toBe('/create-request');
  });

  it('hides the request and order links of a professional waiting for approval', async () => {
    signIn('professional-token', 'professional');
    localStorage.setItem('professional-status', '0');
    renderApp('/professional-dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    const menu = screen.getAllByRole('navigation', { name: 'Professional menu' })[0]!;
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([
      '/professional-dashboard',
      '/view-professional-profile',
      '/update-professional-profile',
      '/professional-logout',
    ]);
  });

  it('sends a professional under review from the request screens to the status page', async () => {
    signIn('professional-token', 'professional');
    localStorage.setItem('professional-status', 'profile-updated');
    const { router } = renderApp('/request-list');
    await screen.findByRole('heading', { level: 1, name: 'Profile review pending' });
    expect(router.state.location.pathname).toBe('/waiting-for-profile-review');
  });

  it('shows an approved professional every menu link and the request screens', async () => {
    signIn('professional-token', 'professional');
    localStorage.setItem('professional-status', '1');
    renderApp('/request-list');
    await screen.findByRole('heading', { level: 1, name: 'Open requests' });
    const menu = screen.getAllByRole('navigation', { name: 'Professional menu' })[0]!;
    expect(within(menu).getAllByRole('link')).toHaveLength(11);
  });

  it('shows the admin menu with its coupons submenu', async () => {
    signIn('admin_token', 'admin', 30 * 24 * 3600, { exp: undefined });
    renderApp('/admin/coupon-list');
    await screen.findByRole('heading', { level: 1, name: 'Coupon list' });
    const menu = screen.getAllByRole('navigation', { name: 'Administration menu' })[0]!;
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([
      '/admin/professionals-list',
      '/admin/user-list',
      '/admin/request-list',
      '/admin/service-list',
      '/admin/order-history',
      '/admin/tax-report',
      '/admin/home',
      '/admin/phome',
      '/admin/frhome',
      '/admin/frphome',
      '/admin/coupon-list',
      '/admin/create-coupon',
      '/admin/contact-messages',
      '/admin/reported-conversations',
      '/admin/problems',
      '/admin/disputes',
      '/admin/legal-pages',
      '/admin/audit-log',
      '/admin/service-accounts',
      '/admin/privacy-incidents',
      '/admin/logout',
    ]);
    expect(within(menu).getByRole('list', { name: 'Coupons' })).toBeVisible();
  });

  it('logs an admin out to the home page, keeping other sessions', async () => {
    signIn('admin_token', 'admin');
    signIn('token', 'user');
    localStorage.setItem('admin_name', 'Root');
    const { router } = renderApp('/admin/logout');
    await screen.findByRole('heading', { level: 1, name: 'Emergency repairs, handled fast' });
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('admin_token')).toBeNull();
    expect(localStorage.getItem('admin_name')).toBeNull();
    expect(localStorage.getItem('token')).not.toBeNull();
  });
});
