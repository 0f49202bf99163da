import { useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { refreshConversations } from './refresh';

/** How often the unread total is asked again while the page is shown (not in the background). */
const UNREAD_REFRESH_MS = 30_000;

/**
 * How often while a screen follows its conversations closely (a request's page): a message
 * there shows within two seconds. The contract has no stream of a caller's conversations.
 */
const UNREAD_CLOSE_REFRESH_MS = 1_500;

/** The unread total's call: the smallest page, for its `unread_total`. */
const UNREAD_INPUT = { pageSize: 1 };

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
 * again when the window gets the focus back, every half minute while it is shown (more often
 * while a screen follows its conversations closely), and whenever a conversation changes on
 * this page (refreshConversations). When it moves, a message came or was read somewhere: the
 * conversation lists shown (a request's conversations, a dashboard's) reload with their last
 * messages and unread counts, so they never tell another story than the count. The area
 * layouts use it once. Zero while unknown (a professional the server does not let list them
 * yet sees no count).
 */
export function useUnreadTotal(enabled = true): number {
  const queryClient = useQueryClient();
  const { data } = useQuery(MarketplaceService.method.listConversations, UNREAD_INPUT, {
    enabled,
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchInterval: UNREAD_REFRESH_MS,
    retry: false,
  });
  const total = data?.unreadTotal;
  const known = useRef(total);
  useEffect(() => {
    if (total === undefined) return;
    if (known.current !== undefined && known.current !== total) refreshConversations(queryClient);
    known.current = total;
  }, [total, queryClient]);
  return total ?? 0;
}

/**
 * While the screen is shown, asks the unread total often (UNREAD_CLOSE_REFRESH_MS) instead of
 * every half minute: the count and the lists that follow it (useUnreadTotal) show a new
 * message within two seconds.
 */
export function useUnreadFollowedClosely(): void {
  useQuery(MarketplaceService.method.listConversations, UNREAD_INPUT, {
    staleTime: 0,
    refetchInterval: UNREAD_CLOSE_REFRESH_MS,
    retry: false,
  });
}
