import { useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/**
 * A request as a professional may see it: its approximate location before they are hired,
 * the street once hired (MarketplaceService.GetRepairRequest).
 */
export function useRequestForProfessional(id: string) {
  return useQuery(MarketplaceService.method.getRepairRequest, { id });
}
