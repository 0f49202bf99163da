import { useQuery } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * What reaches the signed-in person (AccountsService.GetNotificationPreferences): every kind
 * of message their role receives on every channel, in topic then channel order, the ones that
 * are always sent with `mayTurnOff` false. For a customer's or a professional's own account
 * (the session's transport says whose).
 */
export function useNotificationPreferences() {
  return useQuery(AccountsService.method.getNotificationPreferences, {});
}
