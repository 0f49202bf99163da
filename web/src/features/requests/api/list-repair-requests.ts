import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import {
  MarketplaceService,
  type RepairRequestState,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';

export const ADMIN_REQUESTS_PAGE_SIZE = 20;

/** A page of every request, newest first, by state and service (ListRepairRequests, admin). */
export function useAllRequestsPage(
  state: RepairRequestState,
  serviceId: string,
  pageToken: string,
) {
  return useQuery(
    MarketplaceService.method.listRepairRequests,
    { state, serviceId, pageToken, pageSize: ADMIN_REQUESTS_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}
