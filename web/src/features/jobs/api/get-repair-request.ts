import { useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** The request being quoted on, as the professional may see it (GetRepairRequest). */
export function useQuotedRequest(id: string) {
  return useQuery(MarketplaceService.method.getRepairRequest, { id });
}
