/**
 * The problems' admin screens at their paths; the admin area of src/app/routes.tsx puts them
 * behind the admin guard.
 */
import type { RouteObject } from 'react-router';
import { page } from '@/lib/lazy-routes';
import { PROBLEM_PATHS } from '../paths';

export const problemsRoutes = {
  adminArea: [
    page(PROBLEM_PATHS.adminQueue, () =>
      import('./problems-queue-page').then((m) => <m.ProblemsQueuePage />),
    ),
    page('/admin/problems/:id', () => import('./problem-page').then((m) => <m.ProblemPage />)),
  ],
} satisfies Record<string, RouteObject[]>;
