import { useMutation } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** Captures an authorised payment (BillingService.CapturePayment). */
export const useCapturePayment = () => useMutation(BillingService.method.capturePayment);
