import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { AppLink } from '@/components/ui/links';
import { PayoutAccountState, type PayoutAccount } from '@/gen/repairs/billing/v1/billing_pb';
import { reloadTo } from '@/lib/browser';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useCreatePayoutOnboardingLink } from '../api/create-payout-onboarding-link';
import { usePayoutAccount } from '../api/get-payout-account';
import { PayoutFigures, PayoutLedger } from '../components/payout-ledger';
import { TestModeBadge } from '../components/test-mode-badge';
import { MONTHLY_STATEMENT_PATH } from '../paths';
import { ACCOUNT_STATE_KEYS } from '../payout-states';

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
      <AppLink to={MONTHLY_STATEMENT_PATH} color="brand.fg" alignSelf="start">
        {t('statement.link')}
      </AppLink>
      {account.isPending && <RouteLoader />}
      {account.error && <RpcErrorAlert error={account.error} />}
      {account.data?.account && <AccountSummary account={account.data.account} />}
      <Stack as="section" gap="4" aria-labelledby="payouts-heading">
        <Heading as="h2" id="payouts-heading" size="lg" color="brand.900">
          {t('payouts.ledger')}
        </Heading>
        <PayoutLedger professionalId={professionalId} />
      </Stack>
    </Stack>
  );
}

/** The totals, the account's state and, with Stripe, the onboarding button. */
function AccountSummary({ account }: { account: PayoutAccount }) {
  const { t } = useTranslation();
  const onboarding = useCreatePayoutOnboardingLink();
  const needsOnboarding =
    account.state === PayoutAccountState.NOT_STARTED ||
    account.state === PayoutAccountState.PENDING;

  const startOnboarding = () => onboarding.mutate({}, { onSuccess: ({ url }) => reloadTo(url) });

  return (
    <Stack gap="5">
      {account.testMode && <TestModeBadge />}
      <Text>{t(ACCOUNT_STATE_KEYS[account.state] ?? 'payouts.account.notStarted')}</Text>
      <PayoutFigures account={account} reader="professional" />
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
