import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Forgets this browser's push subscription (AccountsService.RemovePushSubscription). */
export function useRemovePushSubscription() {
  return useMutation(AccountsService.method.removePushSubscription);
}
