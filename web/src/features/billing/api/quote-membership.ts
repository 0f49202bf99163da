import { useMutation } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/**
 * The price less a coupon (BillingService.QuoteMembership), asked when a coupon is applied;
 * NOT_FOUND (COUPON_INVALID) for a coupon that cannot be used.
 */
export const useQuoteMembership = () => useMutation(BillingService.method.quoteMembership);
