import { useQuery } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** The monthly price before coupons (BillingService.GetMembershipPrice). */
export const useMembershipPrice = () => useQuery(BillingService.method.getMembershipPrice);
