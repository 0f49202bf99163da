import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Keeps this browser's push subscription for the caller (AccountsService.AddPushSubscription). */
export function useAddPushSubscription() {
  return useMutation(AccountsService.method.addPushSubscription);
}
