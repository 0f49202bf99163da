import { skipToken, useQuery } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** A professional's membership: active, and until when (BillingService.GetMembership). */
export function useMembership(professionalId: string | null) {
  return useQuery(
    BillingService.method.getMembership,
    professionalId ? { professionalId } : skipToken,
  );
}
