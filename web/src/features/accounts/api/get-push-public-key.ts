import { createQueryOptions, useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * Reads the server's VAPID public key (AccountsService.GetPushPublicKey) when asked: only
 * once the person turns alerts on. Kept for the page's life once read.
 */
export function useFetchPushPublicKey() {
  const queryClient = useQueryClient();
  const transport = useTransport();
  return () =>
    queryClient.fetchQuery({
      ...createQueryOptions(AccountsService.method.getPushPublicKey, {}, { transport }),
      staleTime: Infinity,
    });
}
