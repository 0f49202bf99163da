import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Sets a new password with a reset link (AccountsService.ResetPassword). */
export function useResetPassword() {
  return useMutation(AccountsService.method.resetPassword);
}
