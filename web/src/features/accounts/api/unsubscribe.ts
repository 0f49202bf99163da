import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * Turns one kind of email off with the token of the link at the foot of an email
 * (AccountsService.Unsubscribe), without signing in. Saying it twice is no error.
 */
export function useUnsubscribe() {
  return useMutation(AccountsService.method.unsubscribe);
}
