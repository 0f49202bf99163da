import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { invalidate } from '@/lib/query-keys';

/**
 * Pause, resume, go on call or end it (AccountsService.SetProfessionalAvailability): each call
 * replaces both windows, an unset one ends. The professional read again shows the result.
 */
export function useSetProfessionalAvailability() {
  const queryClient = useQueryClient();
  return useMutation(AccountsService.method.setProfessionalAvailability, {
    onSuccess: () => invalidate(queryClient, AccountsService.method.getProfessional),
  });
}
