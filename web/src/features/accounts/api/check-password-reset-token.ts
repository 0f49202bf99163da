import { useQuery } from '@connectrpc/connect-query';
import { AccountsService, type Role } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Whether a reset link can still be used (AccountsService.CheckPasswordResetToken). */
export function useCheckPasswordResetToken(role: Role, accountId: string, token: string) {
  return useQuery(
    AccountsService.method.checkPasswordResetToken,
    { role, accountId, token },
    { staleTime: 0, gcTime: 0 },
  );
}
