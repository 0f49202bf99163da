import { useQuery } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { toProtoLanguage } from '@/lib/proto-language';
import { useLanguage } from '@/lib/use-language';

/**
 * The hire page's booking summary for a quote (BillingService.PreviewHire), its service
 * named in the page's language (which may differ from the account's).
 */
export function usePreviewHire(quoteId: string) {
  const language = toProtoLanguage(useLanguage());
  return useQuery(BillingService.method.previewHire, { quoteId, language });
}
