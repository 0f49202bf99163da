import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { invalidate } from '@/lib/query-keys';

/** Saves the profile (AccountsService.UpdateProfessionalProfile), then reloads it. */
export function useUpdateProfessionalProfile() {
  const queryClient = useQueryClient();
  return useMutation(AccountsService.method.updateProfessionalProfile, {
    onSuccess: () => invalidate(queryClient, AccountsService.method.getProfessional),
  });
}
