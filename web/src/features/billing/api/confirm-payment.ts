import { useMutation } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/**
 * Reads a payment back after the cardholder acted, with the test-mode authentication answer
 * (BillingService.ConfirmPayment).
 */
export const useConfirmPayment = () => useMutation(BillingService.method.confirmPayment);
