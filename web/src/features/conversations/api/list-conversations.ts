import { useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** How often the unread total is asked again while the page is shown (not in the background). */
const UNREAD_REFRESH_MS = 30_000;

/**
 * The caller's conversations, newest message first, each with its unread count
 * (ListConversations): all of them page by page, or those of one request.
 */
export function useConversations(
  { repairRequestId = '', pageToken = '', pageSize = 50 },
  enabled = true,
) {
  return useQuery(
    MarketplaceService.method.listConversations,
    { repairRequestId, pageToken, pageSize },
    { enabled, staleTime: 0, refetchOnWindowFocus: true },
  );
}

/**
 * The unread messages over all of the caller's conversations, for the navigation: asked
 * again when the window gets the focus back, every half minute while it is shown, and
 * whenever a conversation changes on this page (refreshConversations). Zero while unknown
 * (a professional the server does not let list them yet sees no count).
 */
export function useUnreadTotal(enabled = true): number {
  const { data } = useQuery(
    MarketplaceService.method.listConversations,
    { pageSize: 1 },
    {
      enabled,
      staleTime: 0,
      refetchOnWindowFocus: true,
      refetchInterval: UNREAD_REFRESH_MS,
      retry: false,
    },
  );
  return data?.unreadTotal ?? 0;
}
