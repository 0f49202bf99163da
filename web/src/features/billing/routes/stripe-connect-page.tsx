import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PagedList } from '@/components/paged-list';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FigureCards } from '@/components/ui/figure-cards';
import type { Column } from '@/components/ui/simple-table';
import { StateBadge } from '@/components/ui/state-badge';
import {
  PayoutAccountState,
  type Payout,
  type PayoutAccount,
} from '@/gen/repairs/billing/v1/billing_pb';
import { reloadTo } from '@/lib/browser';
import { formatPercent } from '@/lib/money';
import { useDateFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { useMoneyFormat } from '@/lib/use-money-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useCreatePayoutOnboardingLink } from '../api/create-payout-onboarding-link';
import { usePayoutAccount } from '../api/get-payout-account';
import { usePayoutsPage } from '../api/list-payouts';
import { TestModeBadge } from '../components/test-mode-badge';
import { ACCOUNT_STATE_KEYS, PAYOUT_STATES } from '../payout-states';

/**
 * /stripe-connect: how the professional is paid. What captured hires owe them and what was
 * paid (after the platform's fee), the account's state and, with Stripe, the button to the
 * Connect onboarding page; in test mode a labelled ledger where no money moves. Then the
 * ledger itself, one entry per captured hire.
 */
export function StripeConnectPage() {
  const { t } = useTranslation();
  const professionalId = useSignedInId('professional');
  const account = usePayoutAccount(professionalId);
  return (
    <Stack gap="8">
      <PageTitle title={t('pages.stripeConnect')} />
      {account.isPending && <RouteLoader />}
      {account.error && <RpcErrorAlert error={account.error} />}
      {account.data?.account && <AccountSummary account={account.data.account} />}
      <Stack as="section" gap="4" aria-labelledby="payouts-heading">
        <Heading as="h2" id="payouts-heading" size="lg" color="brand.900">
          {t('payouts.ledger')}
        </Heading>
        <PayoutList professionalId={professionalId} />
      </Stack>
    </Stack>
  );
}

/** The totals, the account's state and, with Stripe, the onboarding button. */
function AccountSummary({ account }: { account: PayoutAccount }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatMoney = useMoneyFormat();
  const onboarding = useCreatePayoutOnboardingLink();
  const needsOnboarding =
    account.state === PayoutAccountState.NOT_STARTED ||
    account.state === PayoutAccountState.PENDING;

  const startOnboarding = () => onboarding.mutate({}, { onSuccess: ({ url }) => reloadTo(url) });

  return (
    <Stack gap="5">
      {account.testMode && <TestModeBadge />}
      <Text>{t(ACCOUNT_STATE_KEYS[account.state] ?? 'payouts.account.notStarted')}</Text>
      <FigureCards
        label={t('payouts.totals')}
        wide={2}
        figures={[
          [t('payouts.owed'), formatMoney(account.owed)],
          [t('payouts.paid'), formatMoney(account.paid)],
        ]}
      />
      <Text color="fg.muted">
        {t('payouts.platformFee', { percent: formatPercent(account.platformFeePercent, language) })}
      </Text>
      {needsOnboarding && (
        <Stack gap="3" align="start">
          {onboarding.error && <RpcErrorAlert error={onboarding.error} />}
          <Button colorPalette="accent" loading={onboarding.isPending} onClick={startOnboarding}>
            {account.state === PayoutAccountState.PENDING
              ? t('payouts.continueOnboarding')
              : t('payouts.startOnboarding')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

/** The ledger, page by page: each captured hire, its fee, what it owes and whether paid. */
function PayoutList({ professionalId }: { professionalId: string | null }) {
  const { t } = useTranslation();
  const formatMoney = useMoneyFormat();
  const formatDate = useDateFormat();
  const pages = usePageTokens();
  const { data, isPending, error } = usePayoutsPage(professionalId, pages.token);
  const columns: Column<Payout>[] = [
    { header: t('payouts.date'), cell: (payout) => formatDate(payout.createTime) },
    { header: t('payouts.gross'), cell: (payout) => formatMoney(payout.gross) },
    { header: t('payouts.fee'), cell: (payout) => formatMoney(payout.platformFee) },
    { header: t('payouts.net'), cell: (payout) => formatMoney(payout.net) },
    {
      header: t('payouts.state'),
      cell: (payout) => <StateBadge labels={PAYOUT_STATES} state={payout.state} />,
    },
    { header: t('payouts.paidOn'), cell: (payout) => formatDate(payout.payTime) },
  ];
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
