import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { invalidate } from '@/lib/query-keys';

/** Records the SMS choice (AccountsService.UpdateSmsPreference), then reloads the account. */
export function useUpdateSmsPreference() {
  const queryClient = useQueryClient();
  return useMutation(AccountsService.method.updateSmsPreference, {
    onSuccess: () => invalidate(queryClient, AccountsService.method.getCustomer),
  });
}
