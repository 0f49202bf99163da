import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Confirms an email address with the token of the emailed link (AccountsService.ConfirmEmail). */
export function useConfirmEmail() {
  return useMutation(AccountsService.method.confirmEmail);
}
