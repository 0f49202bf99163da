import { useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** The four counters of the customer dashboard (GetCustomerDashboard). */
export function useCustomerDashboard(customerId: string | null) {
  return useQuery(
    MarketplaceService.method.getCustomerDashboard,
    { customerId: customerId ?? '' },
    { enabled: customerId !== null },
  );
}
