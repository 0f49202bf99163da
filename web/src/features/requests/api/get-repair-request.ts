import { useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** One request with its full address, for its customer or an admin (GetRepairRequest). */
export function useRepairRequest(id: string) {
  return useQuery(MarketplaceService.method.getRepairRequest, { id });
}
