import type { DescMessage, DescMethodUnary } from '@bufbuild/protobuf';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/**
 * A change to a customer's request (place, edit, cancel): after it the request, the lists
 * and the dashboard's counters reload.
 */
export function useRequestChange<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
) {
  return useRefreshingMutation(
    method,
    MarketplaceService.method.getRepairRequest,
    MarketplaceService.method.listCustomerRepairRequests,
    MarketplaceService.method.getCustomerDashboard,
  );
}
