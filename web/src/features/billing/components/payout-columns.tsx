import { useTranslation } from 'react-i18next';
import type { Column } from '@/components/ui/simple-table';
import type { Payout } from '@/gen/repairs/billing/v1/billing_pb';
import { useDateFormat } from '@/lib/use-date-format';
import { useMoneyFormat } from '@/lib/use-money-format';
import { EntryState, FeeWithTaxes } from './payout-cells';

/**
 * The columns of payout entries: the date, the job's amount, the platform's fee and its
 * taxes, the professional's share, the state and when it was paid.
 */
export function usePayoutColumns(): Column<Payout>[] {
  const { t } = useTranslation();
  const formatMoney = useMoneyFormat();
  const formatDate = useDateFormat();
  return [
    { header: t('payouts.date'), cell: (payout) => formatDate(payout.createTime) },
    { header: t('payouts.gross'), cell: (payout) => formatMoney(payout.gross) },
    { header: t('payouts.fee'), cell: (payout) => <FeeWithTaxes payout={payout} /> },
    { header: t('payouts.net'), cell: (payout) => formatMoney(payout.net) },
    { header: t('payouts.state'), cell: (payout) => <EntryState payout={payout} /> },
    { header: t('payouts.paidOn'), cell: (payout) => formatDate(payout.payTime) },
  ];
}
