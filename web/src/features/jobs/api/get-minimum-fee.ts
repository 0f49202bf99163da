import { skipToken, useQuery } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * The professional's minimum (standard) fee from their profile (AccountsService.
 * GetProfessional, the answer the professional area has already cached): the quote form
 * starts from it.
 */
export function useMinimumFee(professionalId: string | null) {
  return useQuery(
    AccountsService.method.getProfessional,
    professionalId ? { id: professionalId } : skipToken,
    { select: (reply) => reply.professional?.profile?.minimumFee ?? null, retryOnMount: false },
  );
}
