import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Signs in (or up) with a Facebook access token (AccountsService.SignInWithFacebook). */
export function useSignInWithFacebook() {
  return useMutation(AccountsService.method.signInWithFacebook);
}
