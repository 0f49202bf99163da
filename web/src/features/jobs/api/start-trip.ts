import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useTripChange } from './refresh';

/** "I'm on my way": the hired professional sets out to the job (MarketplaceService.StartTrip). */
export const useStartTrip = () => useTripChange(MarketplaceService.method.startTrip);
