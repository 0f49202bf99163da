import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRequestChange } from './refresh';

/** Places a request under the form attempt's idempotency key (CreateRepairRequest). */
export const useCreateRepairRequest = () =>
  useRequestChange(MarketplaceService.method.createRepairRequest);
