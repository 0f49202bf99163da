/**
 * The routes table: every route of the specs' "Full route table", grouped by layout and by
 * who may open it, each page also at its /fr twin (a French reader never leaves /fr). Each
 * feature lists its screens at their paths in its routes/index.tsx, with the guards and
 * layouts it gives the router; this table puts the screens in their layouts behind their
 * guards. A few pages (a receipt) are anyone's signed in, each reader in their own area.
 * Unknown paths show the not-found page.
 */
import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { AreaLayout } from '@/components/layout/area-layout';
import { FullWidthLayout, PublicLayout } from '@/components/layout/public-layout';
import { NotFoundPage } from '@/components/not-found-page';
import { RouteErrorPage } from '@/components/route-error-page';
import { RouteLoader } from '@/components/route-loader';
import {
  accountsRoutes,
  CustomerGate,
  DeviceAlertsFollowLanguage,
  ProfessionalLandingRedirect,
  RedirectIfSignedIn,
  RequireRole,
  RequireSignedIn,
} from '@/features/accounts/routes';
import { adminRoutes } from '@/features/admin/routes';
import { problemsRoutes } from '@/features/problems/routes';
import { disputesRoutes } from '@/features/disputes/routes';
import { billingRoutes } from '@/features/billing/routes';
import { contentRoutes } from '@/features/content/routes';
import { AreaLayoutWithUnread, conversationsRoutes } from '@/features/conversations/routes';
import { jobsRoutes } from '@/features/jobs/routes';
import {
  ProfessionalAreaLayout,
  ProfessionalGate,
  professionalsRoutes,
} from '@/features/professionals/routes';
import { requestsRoutes } from '@/features/requests/routes';
import { withFrenchTwins } from '@/lib/lazy-routes';
import type { Role } from '@/lib/session';
import { RootLayout } from './root-layout';

/** Phone verification right after signing up (the new account is signed in). */
const CUSTOMER_ONBOARDING_PAGES: RouteObject[] = [
  { element: <CustomerGate phoneStep />, children: accountsRoutes.customerPhoneSteps },
  ...accountsRoutes.customerOnboarding,
];

const PROFESSIONAL_ONBOARDING_PAGES: RouteObject[] = [
  { element: <ProfessionalGate step="phone" />, children: accountsRoutes.professionalPhoneStep },
  { element: <ProfessionalGate step="code" />, children: accountsRoutes.professionalCodeStep },
  ...accountsRoutes.professionalOnboarding,
];

const CUSTOMER_AREA_PAGES = [
  ...requestsRoutes.customerArea,
  ...conversationsRoutes.customerArea,
  ...jobsRoutes.customerArea,
  ...professionalsRoutes.customerArea,
  ...billingRoutes.customerArea,
  ...accountsRoutes.customerArea,
];

/** Professional screens open whatever the approval status. */
const PROFESSIONAL_AREA_PAGES = [
  ...professionalsRoutes.professionalArea,
  ...billingRoutes.professionalArea,
];

/** The request and order screens: approved professionals only. */
const PROFESSIONAL_WORK_PAGES = [
  ...professionalsRoutes.professionalWork,
  ...conversationsRoutes.professionalWork,
  ...jobsRoutes.professionalWork,
  ...billingRoutes.professionalWork,
];

const ADMIN_AREA_PAGES = [
  ...adminRoutes.adminArea,
  ...requestsRoutes.adminArea,
  ...contentRoutes.adminArea,
  ...conversationsRoutes.adminArea,
  ...problemsRoutes.adminArea,
  ...disputesRoutes.adminArea,
  ...billingRoutes.adminArea,
];

/** Each role's area around its pages: its gates and its layout. */
const AREAS: Record<Role, ReactNode> = {
  customer: (
    <>
      <DeviceAlertsFollowLanguage role="customer" />
      <CustomerGate>
        <AreaLayoutWithUnread area="customer" />
      </CustomerGate>
    </>
  ),
  professional: (
    <>
      <DeviceAlertsFollowLanguage role="professional" />
      <ProfessionalGate>
        <ProfessionalAreaLayout layout={AreaLayoutWithUnread} />
      </ProfessionalGate>
    </>
  ),
  admin: <AreaLayout area="admin" />,
};

export const routes: RouteObject[] = withFrenchTwins([
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <RouteLoader />,
    children: [
      {
        element: <FullWidthLayout />,
        children: [
          ...contentRoutes.home,
          {
            element: <ProfessionalLandingRedirect />,
            children: contentRoutes.professionalLanding,
          },
        ],
      },
      {
        element: <PublicLayout />,
        children: [
          ...contentRoutes.public,
          {
            element: <RedirectIfSignedIn role="customer" />,
            children: accountsRoutes.customerSignIn,
          },
          {
            element: <RedirectIfSignedIn role="professional" />,
            children: accountsRoutes.professionalSignIn,
          },
          { element: <RedirectIfSignedIn role="admin" />, children: accountsRoutes.adminSignIn },
          ...accountsRoutes.password,
          ...accountsRoutes.emailLink,
          { element: <RequireRole role="customer" />, children: CUSTOMER_ONBOARDING_PAGES },
          { element: <RequireRole role="professional" />, children: PROFESSIONAL_ONBOARDING_PAGES },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: <RequireRole role="customer">{AREAS.customer}</RequireRole>,
        children: CUSTOMER_AREA_PAGES,
      },
      {
        element: <RequireRole role="professional">{AREAS.professional}</RequireRole>,
        children: [
          ...PROFESSIONAL_AREA_PAGES,
          { element: <ProfessionalGate requireApproval />, children: PROFESSIONAL_WORK_PAGES },
        ],
      },
      {
        element: <RequireRole role="admin">{AREAS.admin}</RequireRole>,
        children: ADMIN_AREA_PAGES,
      },
      { element: <RequireSignedIn areas={AREAS} />, children: billingRoutes.anySignedIn },
      ...accountsRoutes.logout,
    ],
  },
]);
