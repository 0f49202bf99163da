import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useQuoteChange } from './refresh';

/** Sends a quote on an open request (MarketplaceService.CreateQuote). */
export const useCreateQuote = () => useQuoteChange(MarketplaceService.method.createQuote);
