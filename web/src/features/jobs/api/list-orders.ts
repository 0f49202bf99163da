import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { BillingService, type ListOrdersRequest } from '@/gen/repairs/billing/v1/billing_pb';

export const ORDERS_PAGE_SIZE = 20;

/** Whose orders: a customer's, a professional's, or every order (admin). */
export type OrderParty = ListOrdersRequest['party'];

/** A page of orders, newest first (BillingService.ListOrders); waits for the party's id. */
export function useOrdersPage(party: OrderParty, pageToken: string, enabled = true) {
  return useQuery(
    BillingService.method.listOrders,
    { party, pageToken, pageSize: ORDERS_PAGE_SIZE },
    { enabled, placeholderData: keepPreviousData },
  );
}
