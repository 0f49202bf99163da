import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { refreshConversations } from './refresh';

/** Sends a message under its client key (SendMessage); the conversation lists reload. */
export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation(MarketplaceService.method.sendMessage, {
    onSuccess: () => refreshConversations(queryClient),
  });
}
