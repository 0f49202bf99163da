import { skipToken, useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/**
 * The fee of a request's hired quote (GetQuote): what the hire held on the customer's card
 * and what marking the job completed charges. Nothing is asked while no quote is named.
 */
export function useHiredQuoteFee(hiredQuoteId: string | null) {
  return useQuery(
    MarketplaceService.method.getQuote,
    hiredQuoteId ? { id: hiredQuoteId } : skipToken,
    { select: (reply) => reply.quote?.fee },
  );
}
