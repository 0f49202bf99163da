import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { useCouponChange } from './coupon-change';

/** Deletes a coupon (BillingService.DeleteCoupon). */
export const useDeleteCoupon = () => useCouponChange(BillingService.method.deleteCoupon);
