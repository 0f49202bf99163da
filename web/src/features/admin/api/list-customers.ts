import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { AccountsService, ListCustomersRequestSchema } from '@/gen/repairs/accounts/v1/accounts_pb';
import { bound, limitOf } from '@/lib/contract-limits';
import { ADMIN_PAGE_SIZE } from './list-professionals';

/** The longest search the server takes: ListCustomersRequest.query's max_len. */
export const MAX_CUSTOMER_QUERY = bound(
  limitOf(ListCustomersRequestSchema, 'query').maxLen,
  'customer search',
);

/**
 * A page of customers, newest first, those whose name, email or phone contains `query` when
 * it is not empty (AccountsService.ListCustomers).
 */
export function useCustomersPage(query: string, pageToken: string) {
  return useQuery(
    AccountsService.method.listCustomers,
    { query, pageToken, pageSize: ADMIN_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}
