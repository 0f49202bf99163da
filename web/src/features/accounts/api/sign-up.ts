import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Creates a customer or professional account and signs it in (AccountsService.SignUp). */
export function useSignUp() {
  return useMutation(AccountsService.method.signUp);
}
