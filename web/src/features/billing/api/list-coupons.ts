import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

export const COUPON_PAGE_SIZE = 50;

/** A page of coupons (BillingService.ListCoupons). */
export function useCouponsPage(pageToken: string) {
  return useQuery(
    BillingService.method.listCoupons,
    { pageToken, pageSize: COUPON_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}
