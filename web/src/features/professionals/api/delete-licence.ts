import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { invalidate } from '@/lib/query-keys';

/** Removes a licence document (AccountsService.DeleteLicence). */
export function useDeleteLicence() {
  const queryClient = useQueryClient();
  return useMutation(AccountsService.method.deleteLicence, {
    onSuccess: () => invalidate(queryClient, AccountsService.method.getProfessional),
  });
}
