/**
 * The card disputes' admin screens at their paths; the admin area of src/app/routes.tsx puts
 * them behind the admin guard.
 */
import type { RouteObject } from 'react-router';
import { page } from '@/lib/lazy-routes';
import { DISPUTE_PATHS } from '../paths';

export const disputesRoutes = {
  adminArea: [
    page(DISPUTE_PATHS.adminList, () => import('./disputes-page').then((m) => <m.DisputesPage />)),
    page('/admin/disputes/:disputeId', () =>
      import('./dispute-page').then((m) => <m.DisputePage />),
    ),
  ],
} satisfies Record<string, RouteObject[]>;
