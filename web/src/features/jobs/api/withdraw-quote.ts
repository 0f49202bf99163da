import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useQuoteChange } from './refresh';

/** Takes a quote back while its request is open (MarketplaceService.WithdrawQuote). */
export const useWithdrawQuote = () => useQuoteChange(MarketplaceService.method.withdrawQuote);
