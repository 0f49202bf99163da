/**
 * The professionals feature as the app's router sees it: the screens at their paths, grouped
 * by the place src/app/routes.tsx gives them, and the gate and layout of the professional
 * area.
 */
import type { RouteObject } from 'react-router';
import { page } from '@/lib/lazy-routes';

export { ProfessionalAreaLayout } from '../components/professional-area-layout';
export { ProfessionalGate } from '../components/professional-gate';

const load = {
  status: (status: 'waiting-for-approval' | 'profile-updated' | 'denied') => () =>
    import('./status-page').then((m) => <m.StatusPage status={status} />),
  profile: () => import('./profile-page').then((m) => <m.ProfilePage />),
};

export const professionalsRoutes = {
  /** A professional's public profile, as a customer choosing a quote sees it. */
  customerArea: [
    page('/view-professional/:id', () =>
      import('./public-profile-page').then((m) => <m.PublicProfilePage />),
    ),
  ],
  /** Open whatever the approval status. */
  professionalArea: [
    page('/professional-dashboard', () =>
      import('./dashboard-page').then((m) => <m.DashboardPage />),
    ),
    page('/waiting-for-approval', load.status('waiting-for-approval')),
    page('/waiting-for-profile-review', load.status('profile-updated')),
    page('/disapproved-professional', load.status('denied')),
    page('/professional-profile', load.profile),
    page('/update-professional-profile', load.profile),
    page('/update-professional-licence', () =>
      import('./licence-page').then((m) => <m.LicencePage />),
    ),
    page('/view-professional-profile', () =>
      import('./own-profile-page').then((m) => <m.OwnProfilePage />),
    ),
    page('/profile-updated', () =>
      import('./profile-updated-page').then((m) => <m.ProfileUpdatedPage />),
    ),
  ],
  /** The open requests: approved professionals only. */
  professionalWork: [
    page('/request-list', () => import('./request-list-page').then((m) => <m.RequestListPage />)),
    page('/view-request/:id', () =>
      import('./view-request-page').then((m) => <m.ViewRequestPage />),
    ),
  ],
} satisfies Record<string, RouteObject[]>;
