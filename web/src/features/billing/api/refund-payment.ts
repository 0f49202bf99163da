import { useMutation } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** Refunds a captured payment, in full or in part (BillingService.RefundPayment). */
export const useRefundPayment = () => useMutation(BillingService.method.refundPayment);
