import { useQuery } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { toProtoLanguage } from '@/lib/proto-language';
import { useLanguage } from '@/lib/use-language';

/**
 * A payment's receipt (BillingService.GetReceipt), its description in the page's language; with
 * `refundId`, the credit note of that refund of it.
 */
export function useReceipt(paymentId: string, refundId = '') {
  const language = toProtoLanguage(useLanguage());
  return useQuery(BillingService.method.getReceipt, { paymentId, language, refundId });
}
