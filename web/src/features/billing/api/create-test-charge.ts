import { useMutation } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** The admin's test hold of 100.00 CAD less a coupon (BillingService.CreateTestCharge). */
export const useCreateTestCharge = () => useMutation(BillingService.method.createTestCharge);
