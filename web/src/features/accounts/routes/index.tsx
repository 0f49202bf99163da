/**
 * The accounts feature as the app's router sees it: the screens at their paths (the routes
 * table adds each one's /fr twin), grouped by the place src/app/routes.tsx gives them, and
 * the guards that table puts around routes.
 */
import type { RouteObject } from 'react-router';
import { page } from '@/lib/lazy-routes';
import type { Role } from '@/lib/session';
import { ACCOUNT_CLOSED_PATH } from '../closed-account';
import type { MemberRole } from '../roles';
import { Logout } from './logout';

export { CustomerGate } from '../components/customer-gate';
export { DeviceAlertsFollowLanguage } from '../components/device-alerts-language';
export { RequireRole } from '../components/require-role';
export { RequireSignedIn } from '../components/require-signed-in';
export { ProfessionalLandingRedirect, RedirectIfSignedIn } from '../components/session-redirect';

const load = {
  register: (role: MemberRole) => () =>
    import('./register-page').then((m) => <m.RegisterPage role={role} />),
  login: (role: Role) => () => import('./login-page').then((m) => <m.LoginPage role={role} />),
  forgotPassword: (role: MemberRole) => () =>
    import('./forgot-password-page').then((m) => <m.ForgotPasswordPage role={role} />),
  resetPassword: (role: MemberRole) => () =>
    import('./reset-password-page').then((m) => <m.ResetPasswordPage role={role} />),
  phone: (role: MemberRole) => () =>
    import('./phone-page').then((m) => <m.PhonePage role={role} />),
  code: (role: MemberRole) => () => import('./code-page').then((m) => <m.CodePage role={role} />),
  thanks: (role: MemberRole) => () =>
    import('./thanks-page').then((m) => <m.ThanksPage role={role} />),
};

export const accountsRoutes = {
  customerSignIn: [
    page('/register', load.register('customer')),
    page('/login', load.login('customer')),
  ],
  professionalSignIn: [
    page('/register-as-professional', load.register('professional')),
    page('/login-as-professional', load.login('professional')),
  ],
  /** The specs give the admin sign-in two addresses: /admin and /admin/login. */
  adminSignIn: [page('/admin', load.login('admin')), page('/admin/login', load.login('admin'))],
  /** Password reset works signed in too (the profile pages link to it). */
  password: [
    page('/forgot-password', load.forgotPassword('customer')),
    page('/reset-password/:id/:token', load.resetPassword('customer')),
    page('/prof-forgot-password', load.forgotPassword('professional')),
    page('/prof-reset-password/:id/:token', load.resetPassword('professional')),
  ],
  /**
   * Links in emails, opened signed in or not, in the reader's language: the one emailed at
   * sign-up, the one at the foot of an email that turns that kind of email off, and the one
   * that keeps a closed account; and the page closing an account leads to (signed out).
   */
  emailLink: [
    page('/verify-email/:token', () =>
      import('./verify-email-page').then((m) => <m.VerifyEmailPage />),
    ),
    page('/unsubscribe/:token', () =>
      import('./unsubscribe-page').then((m) => <m.UnsubscribePage />),
    ),
    page('/keep-account/:token', () =>
      import('./keep-account-page').then((m) => <m.KeepAccountPage />),
    ),
    page(ACCOUNT_CLOSED_PATH, () =>
      import('./account-closed-page').then((m) => <m.AccountClosedPage />),
    ),
  ],
  /** Phone verification right after signing up (the new account is signed in). */
  customerPhoneSteps: [
    page('/phone-otp/:id', load.phone('customer')),
    page('/otp-verify/:id/:phone', load.code('customer')),
  ],
  customerOnboarding: [page('/thanks-signup', load.thanks('customer'))],
  professionalPhoneStep: [page('/professional-phone-otp/:id', load.phone('professional'))],
  professionalCodeStep: [page('/professional-otp-verify/:id/:phone', load.code('professional'))],
  professionalOnboarding: [
    page('/professional-otp-verify', () =>
      import('./code-step-redirect').then((m) => <m.ProfessionalCodeStepRedirect />),
    ),
    page('/professional-thanks-signup', load.thanks('professional')),
  ],
  customerArea: [
    page('/user-account-setting', () =>
      import('./account-settings-page').then((m) => <m.AccountSettingsPage />),
    ),
    page('/user-profile-updated', () =>
      import('./profile-updated-page').then((m) => <m.ProfileUpdatedPage />),
    ),
  ],
  logout: [
    { path: '/user-logout', element: <Logout role="customer" /> },
    { path: '/professional-logout', element: <Logout role="professional" /> },
    { path: '/admin/logout', element: <Logout role="admin" /> },
  ],
} satisfies Record<string, RouteObject[]>;
