import { skipToken, useQuery } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** How a professional is paid and their totals (BillingService.GetPayoutAccount). */
export function usePayoutAccount(professionalId: string | null) {
  return useQuery(
    BillingService.method.getPayoutAccount,
    professionalId ? { professionalId } : skipToken,
  );
}
