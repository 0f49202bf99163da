import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Texts a 4-digit code to the phone (AccountsService.SendPhoneCode; 30 s between sends). */
export function useSendPhoneCode() {
  return useMutation(AccountsService.method.sendPhoneCode);
}
