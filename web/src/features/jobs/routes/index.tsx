/**
 * The job loop's screens (quotes, applying, jobs in progress, reviews) at their paths, grouped
 * by the place src/app/routes.tsx gives them behind its layouts and guards.
 */
import type { RouteObject } from 'react-router';
import { page } from '@/lib/lazy-routes';

export const jobsRoutes = {
  customerArea: [
    page('/application-list/:id', () =>
      import('./application-list-page').then((m) => <m.ApplicationListPage />),
    ),
    page('/view-application/:id', () =>
      import('./view-application-page').then((m) => <m.ViewApplicationPage />),
    ),
    page('/submit-review/:id/:req_id', () =>
      import('./submit-review-page').then((m) => <m.SubmitReviewPage />),
    ),
  ],
  /** The professional's request screens: approved professionals only. */
  professionalWork: [
    page('/request-apply/:id', () =>
      import('./request-apply-page').then((m) => <m.RequestApplyPage />),
    ),
    page('/applied-requests', () =>
      import('./applied-requests-page').then((m) => <m.AppliedRequestsPage />),
    ),
    page('/completed-requests', () =>
      import('./completed-requests-page').then((m) => <m.CompletedRequestsPage />),
    ),
    page('/professional-active-requests', () =>
      import('./active-requests-page').then((m) => <m.ActiveRequestsPage />),
    ),
  ],
} satisfies Record<string, RouteObject[]>;
