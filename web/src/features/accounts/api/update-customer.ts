import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { invalidate } from '@/lib/query-keys';

/** Saves the customer's name, email, language and SMS choice (AccountsService.UpdateCustomer). */
export function useUpdateCustomer() {
  const queryClient = useQueryClient();
  return useMutation(AccountsService.method.updateCustomer, {
    onSuccess: () => invalidate(queryClient, AccountsService.method.getCustomer),
  });
}
