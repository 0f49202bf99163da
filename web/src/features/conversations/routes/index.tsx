/**
 * The conversations' screens at their paths, grouped by the place src/app/routes.tsx gives
 * them behind its layouts and guards, and the layout of the customer's and the professional's
 * areas that counts the unread messages on their Messages link.
 */
import type { RouteObject } from 'react-router';
import { page } from '@/lib/lazy-routes';
import { CONVERSATION_PATHS } from '../paths';

export { AreaLayoutWithUnread } from '../components/area-layout-with-unread';

const messages = (reader: 'customer' | 'professional') => () =>
  import('./messages-page').then((m) => <m.MessagesPage reader={reader} />);

export const conversationsRoutes = {
  customerArea: [page(CONVERSATION_PATHS.customerMessages, messages('customer'))],
  /** Approved professionals only, like their request screens. */
  professionalWork: [page(CONVERSATION_PATHS.professionalMessages, messages('professional'))],
  adminArea: [
    page(CONVERSATION_PATHS.reports, () =>
      import('./reported-conversations-page').then((m) => <m.ReportedConversationsPage />),
    ),
  ],
} satisfies Record<string, RouteObject[]>;
