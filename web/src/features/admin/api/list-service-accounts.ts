import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { ADMIN_PAGE_SIZE } from './list-professionals';

/** A page of service accounts, newest first (AccountsService.ListServiceAccounts). */
export function useServiceAccountsPage(pageToken: string) {
  return useQuery(
    AccountsService.method.listServiceAccounts,
    { pageToken, pageSize: ADMIN_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}
