import { skipToken, useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/**
 * What a request's hired quote costs (GetQuote): its total, fee plus taxes (the fee of a
 * quote the server sent no total for), what the hire held on the customer's card and what
 * marking the job completed charges. Nothing is asked while no quote is named.
 */
export function useHiredQuoteFee(hiredQuoteId: string | null) {
  return useQuery(
    MarketplaceService.method.getQuote,
    hiredQuoteId ? { id: hiredQuoteId } : skipToken,
    { select: (reply) => reply.quote?.total ?? reply.quote?.fee },
  );
}
