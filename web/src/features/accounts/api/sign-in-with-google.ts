import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Signs in (or up) with a Google ID token (AccountsService.SignInWithGoogle). */
export function useSignInWithGoogle() {
  return useMutation(AccountsService.method.signInWithGoogle);
}
