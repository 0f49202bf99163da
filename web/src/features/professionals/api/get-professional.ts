import { skipToken, useQuery } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * The signed-in professional with the whole profile (AccountsService.GetProfessional). A
 * failed read is not retried when another screen mounts (the gate decides without it).
 */
export function useProfessional(id: string | null) {
  return useQuery(AccountsService.method.getProfessional, id ? { id } : skipToken, {
    retryOnMount: false,
  });
}
