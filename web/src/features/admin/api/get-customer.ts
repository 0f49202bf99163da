import { useQuery } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** One customer, as admins see it (AccountsService.GetCustomer). */
export function useCustomerForAdmin(id: string) {
  return useQuery(AccountsService.method.getCustomer, { id });
}
