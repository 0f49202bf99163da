import { useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** A quote with its request (GetQuote): the request's customer, its professional or an admin. */
export function useGetQuote(id: string) {
  return useQuery(MarketplaceService.method.getQuote, { id });
}
