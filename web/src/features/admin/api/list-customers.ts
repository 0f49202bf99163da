import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { ADMIN_PAGE_SIZE } from './list-professionals';

/** A page of customers, newest first (AccountsService.ListCustomers). */
export function useCustomersPage(pageToken: string) {
  return useQuery(
    AccountsService.method.listCustomers,
    { pageToken, pageSize: ADMIN_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}
