import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRequestChange } from './refresh';

/** Replaces an open request's content (UpdateRepairRequest). */
export const useUpdateRepairRequest = () =>
  useRequestChange(MarketplaceService.method.updateRepairRequest);
