import { useMutation } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** Buys one month for the signed-in professional (BillingService.PurchaseMembership). */
export const usePurchaseMembership = () => useMutation(BillingService.method.purchaseMembership);
