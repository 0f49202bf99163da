import { useQuery } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** The hire page's booking summary for a quote (BillingService.PreviewHire). */
export function usePreviewHire(quoteId: string) {
  return useQuery(BillingService.method.previewHire, { applicationId: quoteId });
}
