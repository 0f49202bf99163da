import { Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedList } from '@/components/paged-list';
import { FigureCards } from '@/components/ui/figure-cards';
import type { Payout, PayoutAccount } from '@/gen/repairs/billing/v1/billing_pb';
import { formatPercent } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';
import { useMoneyFormat } from '@/lib/use-money-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { usePayoutsPage } from '../api/list-payouts';
import { usePayoutColumns } from './payout-columns';

/**
 * What a professional is owed and was paid, and the platform's fee. `reader` says whose
 * words: the professional's own page ('Owed to you') or an admin's ('Owed').
 */
export function PayoutFigures({
  account,
  reader,
}: {
  account: PayoutAccount;
  reader: 'professional' | 'admin';
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatMoney = useMoneyFormat();
  const words = reader === 'admin' ? 'payouts.admin' : 'payouts';
  return (
    <Stack gap="3">
      <FigureCards
        label={t(`${words}.totals`)}
        wide={2}
        figures={[
          [t(`${words}.owed`), formatMoney(account.owed)],
          [t(`${words}.paid`), formatMoney(account.paid)],
        ]}
      />
      <Text color="fg.muted">
        {t('payouts.platformFee', { percent: formatPercent(account.platformFeePercent, language) })}
      </Text>
    </Stack>
  );
}

/**
 * The ledger, page by page: each captured hire, its fee, what it owes and whether paid.
 * `action`, when given, fills a last column (the admin's 'Mark paid').
 */
export function PayoutLedger({
  professionalId,
  action,
}: {
  professionalId: string | null;
  action?: (payout: Payout) => ReactNode;
}) {
  const { t } = useTranslation();
  const pages = usePageTokens();
  const { data, isPending, error } = usePayoutsPage(professionalId, pages.token);
  const columns = usePayoutColumns();
  if (action) {
    columns.push({ header: t('common.actions'), hiddenHeader: true, cell: action });
  }
  return (
    <PagedList
      caption={t('payouts.ledger')}
      emptyTitle={t('payouts.none')}
      columns={columns}
      rowKey={(payout) => payout.id}
      rows={data?.payouts}
      nextPageToken={data?.nextPageToken ?? ''}
      isPending={isPending}
      error={error}
      pages={pages}
    />
  );
}
