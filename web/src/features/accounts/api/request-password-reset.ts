import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Emails a reset link when the email has an account (AccountsService.RequestPasswordReset). */
export function useRequestPasswordReset() {
  return useMutation(AccountsService.method.requestPasswordReset);
}
