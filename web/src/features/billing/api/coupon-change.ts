import type { DescMessage, DescMethodUnary } from '@bufbuild/protobuf';
import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { invalidate } from '@/lib/query-keys';

/** A change to the coupons (create, switch, delete): the coupon list reloads after it. */
export function useCouponChange<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
) {
  const queryClient = useQueryClient();
  return useMutation(method, {
    onSuccess: () => invalidate(queryClient, BillingService.method.listCoupons),
  });
}
