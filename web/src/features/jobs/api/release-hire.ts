import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/**
 * Gives a hire back (MarketplaceService.ReleaseHire): the professional can't come, or the
 * customer says they didn't. After it, both parties' lists, the request and its quotes reload.
 */
export const useReleaseHire = () =>
  useRefreshingMutation(
    MarketplaceService.method.releaseHire,
    MarketplaceService.method.getRepairRequest,
    MarketplaceService.method.listRepairRequestQuotes,
    MarketplaceService.method.listCustomerRepairRequests,
    MarketplaceService.method.listProfessionalRepairRequests,
    MarketplaceService.method.getCustomerDashboard,
    MarketplaceService.method.getProfessionalDashboard,
  );
