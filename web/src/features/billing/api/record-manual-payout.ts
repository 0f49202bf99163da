import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/**
 * Records a payout an admin made by hand in test mode (BillingService.RecordManualPayout);
 * the ledger and its totals reload.
 */
export const useRecordManualPayout = () =>
  useRefreshingMutation(
    BillingService.method.recordManualPayout,
    BillingService.method.listPayouts,
    BillingService.method.getPayoutAccount,
  );
