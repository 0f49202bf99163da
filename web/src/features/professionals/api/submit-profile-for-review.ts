import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { invalidate } from '@/lib/query-keys';

/** "Continue without licence update" (AccountsService.SubmitProfileForReview). */
export function useSubmitProfileForReview() {
  const queryClient = useQueryClient();
  return useMutation(AccountsService.method.submitProfileForReview, {
    onSuccess: () => invalidate(queryClient, AccountsService.method.getProfessional),
  });
}
