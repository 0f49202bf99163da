import type { DescMessage, DescMethodUnary } from '@bufbuild/protobuf';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { MatchingService } from '@/gen/repairs/matching/v1/matching_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/**
 * A change to a professional's quotes (send, withdraw): after it their lists, the request,
 * the open requests (their "Quote sent" mark) and the dashboard's counters reload.
 */
export function useQuoteChange<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
) {
  return useRefreshingMutation(
    method,
    MarketplaceService.method.listProfessionalRepairRequests,
    MarketplaceService.method.getRepairRequest,
    MarketplaceService.method.getProfessionalDashboard,
    MatchingService.method.listOpenRequests,
  );
}

/**
 * A change to a hired professional's trip (on my way, arrived): after it the request and
 * their lists reload, so that every screen shows the trip as it is.
 */
export function useTripChange<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
) {
  return useRefreshingMutation(
    method,
    MarketplaceService.method.getRepairRequest,
    MarketplaceService.method.listProfessionalRepairRequests,
  );
}
