import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRequestChange } from './refresh';

/** Cancels (the legacy delete) an open request (CancelRepairRequest). */
export const useCancelRepairRequest = () =>
  useRequestChange(MarketplaceService.method.cancelRepairRequest);
