import { skipToken, useQuery } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * The signed-in customer (AccountsService.GetCustomer); idle without an id. A failed read is
 * not retried when another screen mounts (the gates show the page without it).
 */
export function useCustomer(id: string | null) {
  return useQuery(AccountsService.method.getCustomer, id ? { id } : skipToken, {
    retryOnMount: false,
  });
}
