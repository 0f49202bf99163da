import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { useCouponChange } from './coupon-change';

/** Creates a coupon (BillingService.CreateCoupon). */
export const useCreateCoupon = () => useCouponChange(BillingService.method.createCoupon);
