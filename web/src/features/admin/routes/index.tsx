/**
 * The admin screens of professionals, users, the audit log, service accounts and the privacy
 * incident register at their paths; the admin area of src/app/routes.tsx puts them behind the
 * admin guard.
 */
import type { RouteObject } from 'react-router';
import { page } from '@/lib/lazy-routes';

export const adminRoutes = {
  adminArea: [
    page('/admin/professionals-list', () =>
      import('./professionals-list-page').then((m) => <m.ProfessionalsListPage />),
    ),
    page('/admin/view-professional/:id', () =>
      import('./view-professional-page').then((m) => <m.ViewProfessionalPage />),
    ),
    page('/admin/approve-professional/:id', () =>
      import('./approve-professional-route').then((m) => <m.ApproveProfessionalRoute />),
    ),
    page('/admin/disapprove-professional/:id', () =>
      import('./deny-professional-page').then((m) => <m.DenyProfessionalPage />),
    ),
    page('/admin/user-list', () => import('./user-list-page').then((m) => <m.UserListPage />)),
    page('/view-user/:id', () => import('./view-user-page').then((m) => <m.ViewUserPage />)),
    page('/admin/audit-log', () => import('./audit-log-page').then((m) => <m.AuditLogPage />)),
    page('/admin/service-accounts', () =>
      import('./service-accounts-page').then((m) => <m.ServiceAccountsPage />),
    ),
    page('/admin/privacy-incidents', () =>
      import('./privacy-incidents-page').then((m) => <m.PrivacyIncidentsPage />),
    ),
  ],
} satisfies Record<string, RouteObject[]>;
