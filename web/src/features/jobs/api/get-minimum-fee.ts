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

/**
 * Whether the professional gave a GST/HST registration number on their profile (the same
 * cached GetProfessional): only then may a quote add sales taxes, and the form adds them
 * unless told otherwise.
 */
export function useTaxRegistered(professionalId: string | null) {
  return useQuery(
    AccountsService.method.getProfessional,
    professionalId ? { id: professionalId } : skipToken,
    {
      select: (reply) => (reply.professional?.profile?.gstHstNumber ?? '') !== '',
      retryOnMount: false,
    },
  );
}
