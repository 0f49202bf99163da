import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Signs in with email and password (AccountsService.LogIn), for any of the three roles. */
export function useLogIn() {
  return useMutation(AccountsService.method.logIn);
}
