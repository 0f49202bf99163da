import { skipToken, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { toProtoLanguage } from '@/lib/proto-language';
import { useLanguage } from '@/lib/use-language';

/**
 * The signed-in professional's statement of `month` (YYYY-MM; BillingService.
 * GetMonthlyStatement), the services named in the page's language; nothing is asked without
 * a month.
 */
export function useMonthlyStatement(month: string) {
  const language = toProtoLanguage(useLanguage());
  return useQuery(
    BillingService.method.getMonthlyStatement,
    month ? { month, language } : skipToken,
    { placeholderData: keepPreviousData },
  );
}
