import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * Keeps a closed account that is not erased yet, with the token of the emailed link
 * (AccountsService.CancelAccountDeletion); no sign-in needed.
 */
export function useCancelAccountDeletion() {
  return useMutation(AccountsService.method.cancelAccountDeletion);
}
