import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import {
  MarketplaceService,
  type CustomerRepairRequestView,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';

export const CUSTOMER_PAGE_SIZE = 20;

/** A page of the customer's own requests in one view, newest first (ListCustomerRepairRequests). */
export function useCustomerRequestsPage(
  customerId: string | null,
  view: CustomerRepairRequestView,
  pageToken: string,
  pageSize = CUSTOMER_PAGE_SIZE,
) {
  return useQuery(
    MarketplaceService.method.listCustomerRepairRequests,
    { customerId: customerId ?? '', view, pageToken, pageSize },
    { enabled: customerId !== null, placeholderData: keepPreviousData },
  );
}
