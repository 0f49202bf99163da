import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useTripChange } from './refresh';

/** "I've arrived": the trip ends at the door (MarketplaceService.ArriveAtJob). */
export const useArriveAtJob = () => useTripChange(MarketplaceService.method.arriveAtJob);
