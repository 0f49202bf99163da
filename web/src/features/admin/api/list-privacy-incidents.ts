import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { ADMIN_PAGE_SIZE } from './list-professionals';

/** A page of the privacy incident register, newest discovery first (ListPrivacyIncidents). */
export function usePrivacyIncidentsPage(pageToken: string) {
  return useQuery(
    AccountsService.method.listPrivacyIncidents,
    { pageToken, pageSize: ADMIN_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}
