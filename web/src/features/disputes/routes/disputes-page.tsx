import { Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { PagedList } from '@/components/paged-list';
import { AppLink } from '@/components/ui/links';
import { RadioGroupField } from '@/components/ui/radio-group-field';
import type { Column } from '@/components/ui/simple-table';
import { StateBadge } from '@/components/ui/state-badge';
import { DisputeState, type Dispute } from '@/gen/repairs/billing/v1/billing_pb';
import type { TranslationKey } from '@/lib/translation-key';
import { useDateFormat, useDateTimeFormat } from '@/lib/use-date-format';
import { useMoneyFormat } from '@/lib/use-money-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useDisputesPage } from '../api/disputes';
import { DISPUTE_STATES, reasonWords } from '../dispute-words';
import { DISPUTE_PATHS } from '../paths';

/** The list's filters: the disputes waiting for evidence (first), or every one. */
const FILTERS: { state: DisputeState; key: TranslationKey }[] = [
  { state: DisputeState.NEEDS_RESPONSE, key: 'disputes.filters.needsResponse' },
  { state: DisputeState.UNSPECIFIED, key: 'disputes.filters.all' },
];

/**
 * /admin/disputes: the card disputes the gateway reported, newest first (those waiting for
 * evidence, or all): amount, the bank's reason, state, until when evidence is taken and when
 * it was opened, each leading to its page.
 */
export function DisputesPage() {
  const { t } = useTranslation();
  const formatMoney = useMoneyFormat();
  const formatDate = useDateFormat();
  const formatDateTime = useDateTimeFormat();
  const [state, setState] = useState<DisputeState>(DisputeState.NEEDS_RESPONSE);
  const pages = usePageTokens();
  const { data, isPending, error } = useDisputesPage(state, pages.token);

  const columns: Column<Dispute>[] = [
    {
      header: t('disputes.amount'),
      cell: (dispute) => (
        <AppLink
          to={DISPUTE_PATHS.admin(dispute.id)}
          color="brand.fg"
          fontWeight="semibold"
          aria-label={t('disputes.rowLink', {
            amount: formatMoney(dispute.amount),
            time: formatDate(dispute.createTime),
          })}
        >
          {formatMoney(dispute.amount)}
        </AppLink>
      ),
    },
    {
      header: t('disputes.reason'),
      cell: (dispute) => t(reasonWords(dispute.reason), { code: dispute.reason }),
    },
    {
      header: t('disputes.state'),
      cell: (dispute) => <StateBadge labels={DISPUTE_STATES} state={dispute.state} />,
    },
    { header: t('disputes.due'), cell: (dispute) => formatDateTime(dispute.evidenceDueTime) },
    { header: t('disputes.opened'), cell: (dispute) => formatDate(dispute.createTime) },
  ];

  return (
    <Stack gap="6">
      <PageTitle title={t('pages.adminDisputes')} />
      <RadioGroupField
        legend={t('disputes.filter')}
        options={FILTERS.map((filter) => ({ value: String(filter.state), label: t(filter.key) }))}
        value={String(state)}
        onChange={(value) => {
          setState(Number(value) as DisputeState);
          pages.reset();
        }}
      />
      <PagedList
        caption={t('disputes.caption')}
        emptyTitle={t('disputes.none')}
        columns={columns}
        rowKey={(dispute) => dispute.id}
        rows={data?.disputes}
        nextPageToken={data?.nextPageToken ?? ''}
        isPending={isPending}
        error={error}
        pages={pages}
      />
    </Stack>
  );
}
