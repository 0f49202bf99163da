import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { useCouponChange } from './coupon-change';

/** Turns a coupon on or off (BillingService.SetCouponActive). */
export const useSetCouponActive = () => useCouponChange(BillingService.method.setCouponActive);
