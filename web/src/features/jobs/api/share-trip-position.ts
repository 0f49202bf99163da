import { useMutation } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/**
 * Where the professional on the way is now (MarketplaceService.ShareTripPosition), answered
 * with the trip's new estimate. Sent every 20 seconds while on the way, so it reloads nothing:
 * the trip it answers is shown as it comes.
 */
export const useShareTripPosition = () => useMutation(MarketplaceService.method.shareTripPosition);
