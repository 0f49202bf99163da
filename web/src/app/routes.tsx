/**
 * The routes table: every route of the specs' "Full route table", grouped by layout and by
 * who may open it. Screens that later issues build show their title and a "coming soon"
 * panel until then (`soon`). Unknown paths show the not-found page.
 */
import type { RouteObject } from 'react-router';
import { ComingSoonPage } from '@/components/coming-soon-page';
import { AreaLayout } from '@/components/layout/area-layout';
import { FullWidthLayout, PublicLayout } from '@/components/layout/public-layout';
import { NotFoundPage } from '@/components/not-found-page';
import { RouteErrorPage } from '@/components/route-error-page';
import { RouteLoader } from '@/components/route-loader';
import {
  Logout,
  ProfessionalLandingRedirect,
  RedirectIfSignedIn,
  RequireRole,
} from '@/features/accounts';
import { HomePage, ProfessionalLandingPage } from '@/features/content';
import type en from '@/locales/en.json';
import { ProfessionalAreaLayout } from './layouts';
import { RootLayout } from './root-layout';

type PageKey = keyof typeof en.pages;

/** A screen not built yet: its title and a "coming soon" panel. */
const soon = (path: string, page: PageKey): RouteObject => ({
  path,
  element: <ComingSoonPage titleKey={`pages.${page}`} />,
});

const CUSTOMER_SIGN_IN_PAGES = [
  soon('/register', 'register'),
  soon('/fr/register', 'register'),
  soon('/login', 'login'),
  soon('/fr/login', 'login'),
  soon('/forgot-password', 'forgotPassword'),
  soon('/reset-password/:id/:token', 'resetPassword'),
];

const PROFESSIONAL_SIGN_IN_PAGES = [
  soon('/register-as-professional', 'registerAsProfessional'),
  soon('/fr/register-as-professional', 'registerAsProfessional'),
  soon('/login-as-professional', 'loginAsProfessional'),
  soon('/fr/login-as-professional', 'loginAsProfessional'),
  soon('/prof-forgot-password', 'profForgotPassword'),
  soon('/prof-reset-password/:id/:token', 'profResetPassword'),
];

/** Phone verification right after signing up (the new account is signed in). */
const CUSTOMER_ONBOARDING_PAGES = [
  soon('/phone-otp/:id', 'phoneOtp'),
  soon('/otp-verify/:id/:phone', 'otpVerify'),
  soon('/thanks-signup', 'thanksSignup'),
];

const PROFESSIONAL_ONBOARDING_PAGES = [
  soon('/professional-phone-otp/:id', 'professionalPhoneOtp'),
  soon('/professional-otp-verify', 'professionalOtpVerify'),
  soon('/professional-otp-verify/:id/:phone', 'professionalOtpVerify'),
  soon('/professional-thanks-signup', 'professionalThanksSignup'),
];

const CUSTOMER_AREA_PAGES = [
  soon('/user-dashboard', 'userDashboard'),
  soon('/create-request', 'createRequest'),
  soon('/request-created', 'requestCreated'),
  soon('/pending-requests', 'pendingRequests'),
  soon('/edit-request/:id', 'editRequest'),
  soon('/delete-request/:id', 'deleteRequest'),
  soon('/user-view-request/:id', 'userViewRequest'),
  soon('/request-applications-list', 'requestApplicationsList'),
  soon('/application-list/:id', 'applicationList'),
  soon('/view-application/:id', 'viewApplication'),
  soon('/view-professional/:id', 'viewProfessional'),
  soon('/hire/:id', 'hire'),
  soon('/hired-successfully', 'hiredSuccessfully'),
  soon('/user-active-requests', 'userActiveRequests'),
  soon('/user-completed-requests', 'userCompletedRequests'),
  soon('/submit-review/:id/:req_id', 'submitReview'),
  soon('/user-order-history', 'userOrderHistory'),
  soon('/user-account-setting', 'userAccountSetting'),
  soon('/user-profile-updated', 'userProfileUpdated'),
];

/** Professional screens open whatever the approval status. */
const PROFESSIONAL_AREA_PAGES = [
  soon('/professional-dashboard', 'professionalDashboard'),
  soon('/waiting-for-approval', 'waitingForApproval'),
  soon('/waiting-for-profile-review', 'waitingForProfileReview'),
  soon('/disapproved-professional', 'disapprovedProfessional'),
  soon('/professional-profile', 'updateProfessionalProfile'),
  soon('/update-professional-profile', 'updateProfessionalProfile'),
  soon('/update-professional-licence', 'updateProfessionalLicence'),
  soon('/view-professional-profile', 'viewProfessionalProfile'),
  soon('/profile-updated', 'profileUpdated'),
  soon('/stripe-connect', 'stripeConnect'),
  soon('/purchase-membership/:id', 'purchaseMembership'),
  soon('/block-card', 'blockCard'),
];

/** The request and order screens: approved professionals only. */
const PROFESSIONAL_WORK_PAGES = [
  soon('/request-list', 'requestList'),
  soon('/view-request/:id', 'viewRequest'),
  soon('/request-apply/:id', 'requestApply'),
  soon('/applied-requests', 'appliedRequests'),
  soon('/completed-requests', 'completedRequests'),
  soon('/professional-active-requests', 'professionalActiveRequests'),
  soon('/professional-order-history', 'professionalOrderHistory'),
];

const ADMIN_AREA_PAGES = [
  soon('/admin/professionals-list', 'adminProfessionalsList'),
  soon('/admin/view-professional/:id', 'adminViewProfessional'),
  soon('/admin/approve-professional/:id', 'adminApproveProfessional'),
  soon('/admin/disapprove-professional/:id', 'adminDisapproveProfessional'),
  soon('/admin/user-list', 'adminUserList'),
  soon('/view-user/:id', 'viewUser'),
  soon('/admin/request-list', 'adminRequestList'),
  soon('/admin/view-request/:id', 'adminViewRequest'),
  soon('/admin/service-list', 'adminServiceList'),
  soon('/admin/add-service', 'adminAddService'),
  soon('/admin/edit-service/:id', 'adminEditService'),
  soon('/admin/delete-service/:id', 'adminDeleteService'),
  soon('/admin/order-history', 'adminOrderHistory'),
  soon('/admin/home', 'adminHome'),
  soon('/admin/phome', 'adminPhome'),
  soon('/admin/frhome', 'adminFrhome'),
  soon('/admin/frphome', 'adminFrphome'),
  soon('/admin/coupon-list', 'adminCouponList'),
  soon('/admin/create-coupon', 'adminCreateCoupon'),
  soon('/admin/checkout-page', 'adminCheckoutPage'),
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
            children: [soon('/admin', 'adminLogin')],
          },
          { element: <RequireRole role="customer" />, children: CUSTOMER_ONBOARDING_PAGES },
          { element: <RequireRole role="professional" />, children: PROFESSIONAL_ONBOARDING_PAGES },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: (
          <RequireRole role="customer">
            <AreaLayout area="customer" />
          </RequireRole>
        ),
        children: CUSTOMER_AREA_PAGES,
      },
      {
        element: (
          <RequireRole role="professional">
            <ProfessionalAreaLayout />
          </RequireRole>
        ),
        children: [
          ...PROFESSIONAL_AREA_PAGES,
          {
            element: <RequireRole role="professional" requireApproval />,
            children: PROFESSIONAL_WORK_PAGES,
          },
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
