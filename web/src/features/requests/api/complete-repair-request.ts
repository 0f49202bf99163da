import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRequestChange } from './refresh';

/** Marks a hired job done; the server captures the card hold at once (CompleteRepairRequest). */
export const useCompleteRepairRequest = () =>
  useRequestChange(MarketplaceService.method.completeRepairRequest);
