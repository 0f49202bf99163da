import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRequestChange } from './refresh';

/** Removes a photo from an open request (RemoveRepairRequestPhoto); the request reloads. */
export const useRemoveRepairRequestPhoto = () =>
  useRequestChange(MarketplaceService.method.removeRepairRequestPhoto);
