import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * Closes the caller's own account at once and has it erased after the grace period
 * (AccountsService.RequestAccountDeletion). The session is over once it succeeds: the caller
 * signs out locally (components/close-account-section.tsx).
 */
export function useRequestAccountDeletion() {
  return useMutation(AccountsService.method.requestAccountDeletion);
}
