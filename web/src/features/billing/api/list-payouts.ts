import { skipToken, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

export const PAYOUT_PAGE_SIZE = 20;

/** A page of a professional's ledger, newest first (BillingService.ListPayouts). */
export function usePayoutsPage(professionalId: string | null, pageToken: string) {
  return useQuery(
    BillingService.method.listPayouts,
    professionalId ? { professionalId, pageToken, pageSize: PAYOUT_PAGE_SIZE } : skipToken,
    { placeholderData: keepPreviousData },
  );
}
