import { useMutation, useQuery } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/**
 * The price less a coupon (BillingService.QuoteMembership), asked when a coupon is applied;
 * NOT_FOUND (COUPON_INVALID) for a coupon that cannot be used.
 */
export const useQuoteMembership = () => useMutation(BillingService.method.quoteMembership);

/**
 * What one month costs the signed-in professional now, before any coupon: the price, the
 * sales taxes of their province and the total (QuoteMembership without a code);
 * FAILED_PRECONDITION (BUSINESS_ADDRESS_REQUIRED) while their profile has no home base and
 * the platform charges taxes.
 */
export const useMembershipOffer = () =>
  useQuery(BillingService.method.quoteMembership, { couponCode: '' });
