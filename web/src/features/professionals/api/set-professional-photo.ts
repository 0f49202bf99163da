import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { invalidate } from '@/lib/query-keys';

/** Replaces the profile photo (AccountsService.SetProfessionalPhoto). */
export function useSetProfessionalPhoto() {
  const queryClient = useQueryClient();
  return useMutation(AccountsService.method.setProfessionalPhoto, {
    onSuccess: () => invalidate(queryClient, AccountsService.method.getProfessional),
  });
}
