import { skipToken, useQuery } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** A period of the tax report: its first and last days, YYYY-MM-DD. */
export interface TaxPeriod {
  startDate: string;
  endDate: string;
}

/** The sales tax report of a period (BillingService.GetTaxReport); nothing asked without one. */
export function useTaxReport(period: TaxPeriod | null) {
  return useQuery(BillingService.method.getTaxReport, period ?? skipToken);
}
