import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { invalidate } from '@/lib/query-keys';
import type { QueryClient } from '@tanstack/react-query';

/** After a message came, went or was read: the lists and their unread counts reload. */
export function refreshConversations(queryClient: QueryClient): void {
  invalidate(queryClient, MarketplaceService.method.listConversations);
}
