import { useQuery } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** How cards are taken: the offline test gateway or Stripe (BillingService.GetPaymentConfig). */
export const usePaymentConfig = () => useQuery(BillingService.method.getPaymentConfig);
