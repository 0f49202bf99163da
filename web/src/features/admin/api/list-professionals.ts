import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { AccountsService, type ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';

export const ADMIN_PAGE_SIZE = 20;

/**
 * A page of professionals, newest first, optionally in one state or only those whose
 * pending change waits (ListProfessionals).
 */
export function useProfessionalsPage(
  state: ProfessionalState,
  withPendingChange: boolean,
  pageToken: string,
) {
  return useQuery(
    AccountsService.method.listProfessionals,
    { state, withPendingChange, pageToken, pageSize: ADMIN_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}
