import { useMutation } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** Releases an authorisation without charging (BillingService.VoidPayment). */
export const useVoidPayment = () => useMutation(BillingService.method.voidPayment);
