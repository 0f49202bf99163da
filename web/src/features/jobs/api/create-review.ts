import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/**
 * Reviews the professional hired on a completed request (CreateReview); the request lists
 * (their 'Review Submitted') and the professional's reviews reload after it.
 */
export const useCreateReview = () =>
  useRefreshingMutation(
    MarketplaceService.method.createReview,
    MarketplaceService.method.listCustomerRepairRequests,
    MarketplaceService.method.listProfessionalReviews,
    MarketplaceService.method.getRepairRequest,
  );
