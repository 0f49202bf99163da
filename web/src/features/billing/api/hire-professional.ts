import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/**
 * Hires a quote's professional, the fee held on the card (BillingService.HireProfessional);
 * the requests, their quotes, the dashboard and the orders reload after it.
 */
export const useHireProfessional = () =>
  useRefreshingMutation(
    BillingService.method.hireProfessional,
    MarketplaceService,
    BillingService.method.listOrders,
  );
