/**
 * The routes table: every route of the specs' "Full route table", grouped by layout and by
 * who may open it. Unknown paths show the not-found page.
 */
import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { AreaLayout } from '@/components/layout/area-layout';
import { FullWidthLayout, PublicLayout } from '@/components/layout/public-layout';
import { NotFoundPage } from '@/components/not-found-page';
import { RouteErrorPage } from '@/components/route-error-page';
import { RouteLoader } from '@/components/route-loader';
import {
  CustomerGate,
  Logout,
  ProfessionalLandingRedirect,
  RedirectIfSignedIn,
  RequireRole,
  type MemberRole,
} from '@/features/accounts';
import { HomePage, ProfessionalLandingPage, type LandingPageKind } from '@/features/content';
import { ProfessionalGate } from '@/features/professionals';
import type { Language } from '@/lib/language';
import type { Role } from '@/lib/session';
import { ProfessionalAreaLayout } from './layouts';
import { RootLayout } from './root-layout';

/** A screen whose code loads when it is first opened. */
const page = (path: string, load: () => Promise<ReactNode>): RouteObject => ({
  path,
  lazy: async () => ({ element: await load() }),
});

/** The same screen at a path and at its /fr twin. */
const twins = (path: string, load: () => Promise<ReactNode>) => [
  page(path, load),
  page(`/fr${path}`, load),
];

const accountsRoute = {
  register: (role: MemberRole) => async () => {
    const { RegisterPage } = await import('@/features/accounts/routes/register-page');
    return <RegisterPage role={role} />;
  },
  login: (role: Role) => async () => {
    const { LoginPage } = await import('@/features/accounts/routes/login-page');
    return <LoginPage role={role} />;
  },
  forgotPassword: (role: MemberRole) => async () => {
    const { ForgotPasswordPage } = await import('@/features/accounts/routes/forgot-password-page');
    return <ForgotPasswordPage role={role} />;
  },
  resetPassword: (role: MemberRole) => async () => {
    const { ResetPasswordPage } = await import('@/features/accounts/routes/reset-password-page');
    return <ResetPasswordPage role={role} />;
  },
  phone: (role: MemberRole) => async () => {
    const { PhonePage } = await import('@/features/accounts/routes/phone-page');
    return <PhonePage role={role} />;
  },
  code: (role: MemberRole) => async () => {
    const { CodePage } = await import('@/features/accounts/routes/code-page');
    return <CodePage role={role} />;
  },
  thanks: (role: MemberRole) => async () => {
    const { ThanksPage } = await import('@/features/accounts/routes/thanks-page');
    return <ThanksPage role={role} />;
  },
};

const CUSTOMER_SIGN_IN_PAGES = [
  ...twins('/register', accountsRoute.register('customer')),
  ...twins('/login', accountsRoute.login('customer')),
];

const PROFESSIONAL_SIGN_IN_PAGES = [
  ...twins('/register-as-professional', accountsRoute.register('professional')),
  ...twins('/login-as-professional', accountsRoute.login('professional')),
];

/** Password reset works signed in too (the profile pages link to it). */
const PASSWORD_PAGES = [
  page('/forgot-password', accountsRoute.forgotPassword('customer')),
  page('/reset-password/:id/:token', accountsRoute.resetPassword('customer')),
  page('/prof-forgot-password', accountsRoute.forgotPassword('professional')),
  page('/prof-reset-password/:id/:token', accountsRoute.resetPassword('professional')),
];

/** The link emailed at sign-up: opened signed in or not, in the stored language. */
const EMAIL_LINK_PAGES = [
  page('/verify-email/:token', async () => {
    const { VerifyEmailPage } = await import('@/features/accounts/routes/verify-email-page');
    return <VerifyEmailPage />;
  }),
];

/** Phone verification right after signing up (the new account is signed in). */
const CUSTOMER_ONBOARDING_PAGES: RouteObject[] = [
  {
    element: <CustomerGate phoneStep />,
    children: [
      page('/phone-otp/:id', accountsRoute.phone('customer')),
      page('/otp-verify/:id/:phone', accountsRoute.code('customer')),
    ],
  },
  page('/thanks-signup', accountsRoute.thanks('customer')),
];

const PROFESSIONAL_ONBOARDING_PAGES: RouteObject[] = [
  {
    element: <ProfessionalGate step="phone" />,
    children: [page('/professional-phone-otp/:id', accountsRoute.phone('professional'))],
  },
  {
    element: <ProfessionalGate step="code" />,
    children: [page('/professional-otp-verify/:id/:phone', accountsRoute.code('professional'))],
  },
  page('/professional-otp-verify', async () => {
    const { ProfessionalCodeStepRedirect } =
      await import('@/features/accounts/routes/code-step-redirect');
    return <ProfessionalCodeStepRedirect />;
  }),
  page('/professional-thanks-signup', accountsRoute.thanks('professional')),
];

const requestsRoute = {
  dashboard: async () => {
    const { CustomerDashboardPage } =
      await import('@/features/requests/routes/customer-dashboard-page');
    return <CustomerDashboardPage />;
  },
  create: async () => {
    const { CreateRequestPage } = await import('@/features/requests/routes/create-request-page');
    return <CreateRequestPage />;
  },
  created: async () => {
    const { RequestCreatedPage } = await import('@/features/requests/routes/request-created-page');
    return <RequestCreatedPage />;
  },
  pending: async () => {
    const { PendingRequestsPage } =
      await import('@/features/requests/routes/pending-requests-page');
    return <PendingRequestsPage />;
  },
  edit: async () => {
    const { EditRequestPage } = await import('@/features/requests/routes/edit-request-page');
    return <EditRequestPage />;
  },
  remove: async () => {
    const { DeleteRequestPage } = await import('@/features/requests/routes/delete-request-page');
    return <DeleteRequestPage />;
  },
  view: async () => {
    const { UserViewRequestPage } =
      await import('@/features/requests/routes/user-view-request-page');
    return <UserViewRequestPage />;
  },
  withQuotes: async () => {
    const { RequestApplicationsListPage } =
      await import('@/features/requests/routes/request-applications-list-page');
    return <RequestApplicationsListPage />;
  },
  active: async () => {
    const { ActiveRequestsPage } = await import('@/features/requests/routes/active-requests-page');
    return <ActiveRequestsPage />;
  },
  completed: async () => {
    const { CompletedRequestsPage } =
      await import('@/features/requests/routes/completed-requests-page');
    return <CompletedRequestsPage />;
  },
};

const jobsRoute = {
  quotes: async () => {
    const { ApplicationListPage } = await import('@/features/jobs/routes/application-list-page');
    return <ApplicationListPage />;
  },
  quote: async () => {
    const { ViewApplicationPage } = await import('@/features/jobs/routes/view-application-page');
    return <ViewApplicationPage />;
  },
  review: async () => {
    const { SubmitReviewPage } = await import('@/features/jobs/routes/submit-review-page');
    return <SubmitReviewPage />;
  },
  customerOrders: async () => {
    const { UserOrderHistoryPage } =
      await import('@/features/billing/routes/user-order-history-page');
    return <UserOrderHistoryPage />;
  },
};

const billingRoute = {
  purchaseMembership: async () => {
    const { PurchaseMembershipPage } =
      await import('@/features/billing/routes/purchase-membership-page');
    return <PurchaseMembershipPage />;
  },
  testCheckout: async () => {
    const { TestCheckoutPage } = await import('@/features/billing/routes/test-checkout-page');
    return <TestCheckoutPage />;
  },
  hire: async () => {
    const { HirePage } = await import('@/features/billing/routes/hire-page');
    return <HirePage />;
  },
  hired: async () => {
    const { HiredSuccessfullyPage } =
      await import('@/features/billing/routes/hired-successfully-page');
    return <HiredSuccessfullyPage />;
  },
};

const CUSTOMER_AREA_PAGES = [
  page('/user-dashboard', requestsRoute.dashboard),
  page('/create-request', requestsRoute.create),
  page('/request-created', requestsRoute.created),
  page('/pending-requests', requestsRoute.pending),
  page('/edit-request/:id', requestsRoute.edit),
  page('/delete-request/:id', requestsRoute.remove),
  page('/user-view-request/:id', requestsRoute.view),
  page('/request-applications-list', requestsRoute.withQuotes),
  page('/application-list/:id', jobsRoute.quotes),
  page('/view-application/:id', jobsRoute.quote),
  page('/view-professional/:id', async () => {
    const { PublicProfilePage } =
      await import('@/features/professionals/routes/public-profile-page');
    return <PublicProfilePage />;
  }),
  page('/hire/:id', billingRoute.hire),
  page('/hired-successfully', billingRoute.hired),
  page('/user-active-requests', requestsRoute.active),
  page('/user-completed-requests', requestsRoute.completed),
  page('/submit-review/:id/:req_id', jobsRoute.review),
  page('/user-order-history', jobsRoute.customerOrders),
  page('/user-account-setting', async () => {
    const { AccountSettingsPage } =
      await import('@/features/accounts/routes/account-settings-page');
    return <AccountSettingsPage />;
  }),
  page('/user-profile-updated', async () => {
    const { ProfileUpdatedPage } = await import('@/features/accounts/routes/profile-updated-page');
    return <ProfileUpdatedPage />;
  }),
];

const professionalRoute = {
  status: (status: 'waiting-for-approval' | 'profile-updated' | 'denied') => async () => {
    const { StatusPage } = await import('@/features/professionals/routes/status-page');
    return <StatusPage status={status} />;
  },
  profile: async () => {
    const { ProfilePage } = await import('@/features/professionals/routes/profile-page');
    return <ProfilePage />;
  },
};

/** Professional screens open whatever the approval status. */
const PROFESSIONAL_AREA_PAGES = [
  page('/professional-dashboard', async () => {
    const { DashboardPage } = await import('@/features/professionals/routes/dashboard-page');
    return <DashboardPage />;
  }),
  page('/waiting-for-approval', professionalRoute.status('waiting-for-approval')),
  page('/waiting-for-profile-review', professionalRoute.status('profile-updated')),
  page('/disapproved-professional', professionalRoute.status('denied')),
  page('/professional-profile', professionalRoute.profile),
  page('/update-professional-profile', professionalRoute.profile),
  page('/update-professional-licence', async () => {
    const { LicencePage } = await import('@/features/professionals/routes/licence-page');
    return <LicencePage />;
  }),
  page('/view-professional-profile', async () => {
    const { OwnProfilePage } = await import('@/features/professionals/routes/own-profile-page');
    return <OwnProfilePage />;
  }),
  page('/profile-updated', async () => {
    const { ProfileUpdatedPage } =
      await import('@/features/professionals/routes/profile-updated-page');
    return <ProfileUpdatedPage />;
  }),
  page('/stripe-connect', async () => {
    const { StripeConnectPage } = await import('@/features/billing/routes/stripe-connect-page');
    return <StripeConnectPage />;
  }),
  page('/purchase-membership/:id', billingRoute.purchaseMembership),
  page('/purchase-membership', billingRoute.purchaseMembership),
  page('/membership-purchase', billingRoute.purchaseMembership),
];

/** The request and order screens: approved professionals only. */
const PROFESSIONAL_WORK_PAGES = [
  page('/request-list', async () => {
    const { RequestListPage } = await import('@/features/professionals/routes/request-list-page');
    return <RequestListPage />;
  }),
  page('/view-request/:id', async () => {
    const { ViewRequestPage } = await import('@/features/professionals/routes/view-request-page');
    return <ViewRequestPage />;
  }),
  page('/request-apply/:id', async () => {
    const { RequestApplyPage } = await import('@/features/jobs/routes/request-apply-page');
    return <RequestApplyPage />;
  }),
  page('/applied-requests', async () => {
    const { AppliedRequestsPage } = await import('@/features/jobs/routes/applied-requests-page');
    return <AppliedRequestsPage />;
  }),
  page('/completed-requests', async () => {
    const { CompletedRequestsPage } =
      await import('@/features/jobs/routes/completed-requests-page');
    return <CompletedRequestsPage />;
  }),
  page('/professional-active-requests', async () => {
    const { ActiveRequestsPage } = await import('@/features/jobs/routes/active-requests-page');
    return <ActiveRequestsPage />;
  }),
  page('/professional-order-history', async () => {
    const { ProfessionalOrderHistoryPage } =
      await import('@/features/billing/routes/professional-order-history-page');
    return <ProfessionalOrderHistoryPage />;
  }),
];

/** A landing page's text editor in one language, loaded with the content screens. */
const landingEditor = (kind: LandingPageKind, language: Language) => async () => {
  const { LandingPageEditor } = await import('@/features/content/routes/page-editor-routes');
  return <LandingPageEditor kind={kind} language={language} />;
};

const ADMIN_AREA_PAGES = [
  page('/admin/professionals-list', async () => {
    const { ProfessionalsListPage } =
      await import('@/features/admin/routes/professionals-list-page');
    return <ProfessionalsListPage />;
  }),
  page('/admin/view-professional/:id', async () => {
    const { ViewProfessionalPage } = await import('@/features/admin/routes/view-professional-page');
    return <ViewProfessionalPage />;
  }),
  page('/admin/approve-professional/:id', async () => {
    const { ApproveProfessionalRoute } =
      await import('@/features/admin/routes/approve-professional-route');
    return <ApproveProfessionalRoute />;
  }),
  page('/admin/disapprove-professional/:id', async () => {
    const { DenyProfessionalPage } = await import('@/features/admin/routes/deny-professional-page');
    return <DenyProfessionalPage />;
  }),
  page('/admin/user-list', async () => {
    const { UserListPage } = await import('@/features/admin/routes/user-list-page');
    return <UserListPage />;
  }),
  page('/view-user/:id', async () => {
    const { ViewUserPage } = await import('@/features/admin/routes/view-user-page');
    return <ViewUserPage />;
  }),
  page('/admin/request-list', async () => {
    const { AdminRequestListPage } =
      await import('@/features/requests/routes/admin-request-list-page');
    return <AdminRequestListPage />;
  }),
  page('/admin/view-request/:id', async () => {
    const { AdminViewRequestPage } =
      await import('@/features/requests/routes/admin-view-request-page');
    return <AdminViewRequestPage />;
  }),
  page('/admin/service-list', async () => {
    const { ServiceListPage } = await import('@/features/content/routes/service-list-page');
    return <ServiceListPage />;
  }),
  page('/admin/add-service', async () => {
    const { AddServicePage } = await import('@/features/content/routes/service-form-page');
    return <AddServicePage />;
  }),
  page('/admin/edit-service/:id', async () => {
    const { EditServicePage } = await import('@/features/content/routes/service-form-page');
    return <EditServicePage />;
  }),
  page('/admin/delete-service/:id', async () => {
    const { DeleteServicePage } = await import('@/features/content/routes/delete-service-page');
    return <DeleteServicePage />;
  }),
  page('/admin/home', landingEditor('home', 'en')),
  page('/admin/frhome', landingEditor('home', 'fr')),
  page('/admin/phome', landingEditor('professional', 'en')),
  page('/admin/frphome', landingEditor('professional', 'fr')),
  page('/admin/order-history', async () => {
    const { AdminOrderHistoryPage } =
      await import('@/features/billing/routes/admin-order-history-page');
    return <AdminOrderHistoryPage />;
  }),
  page('/admin/professional-payouts/:id', async () => {
    const { AdminProfessionalPayoutsPage } =
      await import('@/features/billing/routes/admin-professional-payouts-page');
    return <AdminProfessionalPayoutsPage />;
  }),
  page('/admin/coupon-list', async () => {
    const { CouponListPage } = await import('@/features/billing/routes/coupon-list-page');
    return <CouponListPage />;
  }),
  page('/admin/create-coupon', async () => {
    const { CreateCouponPage } = await import('@/features/billing/routes/create-coupon-page');
    return <CreateCouponPage />;
  }),
  page('/admin/checkout-page', billingRoute.testCheckout),
  page('/admin/contact-messages', async () => {
    const { ContactInboxPage } = await import('@/features/content/routes/contact-inbox-page');
    return <ContactInboxPage />;
  }),
  page('/admin/legal-pages', async () => {
    const { LegalEditorPage } = await import('@/features/content/routes/legal-editor-page');
    return <LegalEditorPage />;
  }),
  page('/admin/audit-log', async () => {
    const { AuditLogPage } = await import('@/features/admin/routes/audit-log-page');
    return <AuditLogPage />;
  }),
  // The specs list /block-card among the professional routes ("content not shown except the
  // test card page"), but a test hold moves money and the contract keeps CreateTestCharge for
  // admins: it is the admin's test checkout, behind the admin guard.
  page('/block-card', billingRoute.testCheckout),
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <RouteLoader />,
    children: [
      {
        element: <FullWidthLayout />,
        children: [
          { path: '/', element: <HomePage /> },
          { path: '/fr', element: <HomePage /> },
          {
            element: <ProfessionalLandingRedirect />,
            children: [
              { path: '/professional', element: <ProfessionalLandingPage /> },
              { path: '/fr/professional', element: <ProfessionalLandingPage /> },
            ],
          },
        ],
      },
      {
        element: <PublicLayout />,
        children: [
          {
            path: '/contact',
            lazy: async () => {
              const { ContactPage } = await import('@/features/content/routes/contact-page');
              return { Component: ContactPage };
            },
          },
          {
            path: '/terms-and-conditions',
            lazy: async () => {
              const { LegalPage } = await import('@/features/content/routes/legal-page');
              return { element: <LegalPage kind="terms" /> };
            },
          },
          {
            path: '/privacy-policy',
            lazy: async () => {
              const { LegalPage } = await import('@/features/content/routes/legal-page');
              return { element: <LegalPage kind="privacy" /> };
            },
          },
          { element: <RedirectIfSignedIn role="customer" />, children: CUSTOMER_SIGN_IN_PAGES },
          {
            element: <RedirectIfSignedIn role="professional" />,
            children: PROFESSIONAL_SIGN_IN_PAGES,
          },
          {
            element: <RedirectIfSignedIn role="admin" />,
            // The specs give the admin sign-in two addresses: /admin and /admin/login.
            children: [
              page('/admin', accountsRoute.login('admin')),
              page('/admin/login', accountsRoute.login('admin')),
            ],
          },
          ...PASSWORD_PAGES,
          ...EMAIL_LINK_PAGES,
          { element: <RequireRole role="customer" />, children: CUSTOMER_ONBOARDING_PAGES },
          { element: <RequireRole role="professional" />, children: PROFESSIONAL_ONBOARDING_PAGES },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: (
          <RequireRole role="customer">
            <CustomerGate>
              <AreaLayout area="customer" />
            </CustomerGate>
          </RequireRole>
        ),
        children: CUSTOMER_AREA_PAGES,
      },
      {
        element: (
          <RequireRole role="professional">
            <ProfessionalGate>
              <ProfessionalAreaLayout />
            </ProfessionalGate>
          </RequireRole>
        ),
        children: [
          ...PROFESSIONAL_AREA_PAGES,
          { element: <ProfessionalGate requireApproval />, children: PROFESSIONAL_WORK_PAGES },
        ],
      },
      {
        element: (
          <RequireRole role="admin">
            <AreaLayout area="admin" />
          </RequireRole>
        ),
        children: ADMIN_AREA_PAGES,
      },
      { path: '/user-logout', element: <Logout role="customer" /> },
      { path: '/professional-logout', element: <Logout role="professional" /> },
      { path: '/admin/logout', element: <Logout role="admin" /> },
    ],
  },
];
