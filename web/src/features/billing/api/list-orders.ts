import { skipToken, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { BillingService, type ListOrdersRequest } from '@/gen/repairs/billing/v1/billing_pb';

export const ORDER_PAGE_SIZE = 20;

/** Whose orders: one customer's, one professional's, or (admin) everyone's. */
export type OrderParty = ListOrdersRequest['party'];

/**
 * A page of orders, newest first (BillingService.ListOrders); nothing is asked while the
 * party is null (the signed-in id is not known).
 */
export function useOrdersPage(party: OrderParty | null, pageToken: string) {
  return useQuery(
    BillingService.method.listOrders,
    party ? { party, pageToken, pageSize: ORDER_PAGE_SIZE } : skipToken,
    { placeholderData: keepPreviousData },
  );
}
