import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { forget } from '@/lib/query-keys';

/**
 * Checks the code (AccountsService.VerifyPhoneCode). The cached account is forgotten on
 * success: the next screen reads it afresh and sees the verified phone.
 */
export function useVerifyPhoneCode() {
  const queryClient = useQueryClient();
  return useMutation(AccountsService.method.verifyPhoneCode, {
    onSuccess: () =>
      forget(
        queryClient,
        AccountsService.method.getCustomer,
        AccountsService.method.getProfessional,
      ),
  });
}
