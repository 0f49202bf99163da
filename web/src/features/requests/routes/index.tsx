/**
 * The repair-request screens at their paths, grouped by the place src/app/routes.tsx gives
 * them behind its layouts and guards.
 */
import type { RouteObject } from 'react-router';
import { page } from '@/lib/lazy-routes';

export const requestsRoutes = {
  customerArea: [
    page('/user-dashboard', () =>
      import('./customer-dashboard-page').then((m) => <m.CustomerDashboardPage />),
    ),
    page('/create-request', () =>
      import('./create-request-page').then((m) => <m.CreateRequestPage />),
    ),
    page('/request-created', () =>
      import('./request-created-page').then((m) => <m.RequestCreatedPage />),
    ),
    page('/pending-requests', () =>
      import('./pending-requests-page').then((m) => <m.PendingRequestsPage />),
    ),
    page('/edit-request/:id', () =>
      import('./edit-request-page').then((m) => <m.EditRequestPage />),
    ),
    page('/delete-request/:id', () =>
      import('./delete-request-page').then((m) => <m.DeleteRequestPage />),
    ),
    page('/user-view-request/:id', () =>
      import('./user-view-request-page').then((m) => <m.UserViewRequestPage />),
    ),
    page('/request-applications-list', () =>
      import('./request-applications-list-page').then((m) => <m.RequestApplicationsListPage />),
    ),
    page('/user-active-requests', () =>
      import('./active-requests-page').then((m) => <m.ActiveRequestsPage />),
    ),
    page('/user-completed-requests', () =>
      import('./completed-requests-page').then((m) => <m.CompletedRequestsPage />),
    ),
  ],
  adminArea: [
    page('/admin/request-list', () =>
      import('./admin-request-list-page').then((m) => <m.AdminRequestListPage />),
    ),
    page('/admin/view-request/:id', () =>
      import('./admin-view-request-page').then((m) => <m.AdminViewRequestPage />),
    ),
  ],
} satisfies Record<string, RouteObject[]>;
