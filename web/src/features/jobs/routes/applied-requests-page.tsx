import { Button, Heading, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { PageTitle } from '@/components/page-title';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toaster } from '@/components/ui/toast';
import {
  ProfessionalRepairRequestView,
  type QuotedRepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { readRpcError } from '@/lib/rpc-error';
import { useWithdrawQuote } from '../api/withdraw-quote';
import { useQuotedRequestColumns } from '../components/quoted-request-columns';
import { QuotedRequests } from '../components/quoted-requests';

/**
 * /applied-requests: the quotes waiting for the customer (time in hours and fee), each
 * with View and Withdraw (after a confirmation; MarketplaceService.WithdrawQuote), then the
 * quotes that were not selected (someone else hired, or the request was cancelled or
 * expired).
 */
export function AppliedRequestsPage() {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  const withdraw = useWithdrawQuote();
  const [withdrawing, setWithdrawing] = useState<{ id: string; service: string } | null>(null);

  const applied = useQuotedRequestColumns(
    ['service', 'place', 'hours', 'fee', 'quoted'],
    (row: QuotedRepairRequest, service: string) => (
      <Button
        size="sm"
        variant="outline"
        colorPalette="red"
        aria-label={t('jobs.withdrawLabel', { service })}
        onClick={() => setWithdrawing({ id: row.quote?.id ?? '', service })}
      >
        {t('jobs.withdraw')}
      </Button>
    ),
  );
  const lost = useQuotedRequestColumns(['service', 'place', 'fee', 'state', 'closed']);

  const confirmWithdraw = () => {
    if (!withdrawing) return;
    withdraw.mutate(
      { id: withdrawing.id },
      {
        onSuccess: () => toaster.create({ type: 'success', title: t('jobs.withdrawn') }),
        onError: (failure) =>
          toaster.create({ type: 'error', title: problemMessage(readRpcError(failure)) }),
        onSettled: () => setWithdrawing(null),
      },
    );
  };

  return (
    <Stack gap="8">
      <PageTitle title={t('pages.appliedRequests')} />
      <QuotedRequests
        view={ProfessionalRepairRequestView.APPLIED}
        caption={t('jobs.appliedCaption')}
        emptyTitle={t('jobs.noApplied')}
        columns={applied}
      />
      <Stack as="section" gap="4" aria-labelledby="lost-heading">
        <Heading as="h2" id="lost-heading" size="lg" color="brand.900">
          {t('jobs.lostHeading')}
        </Heading>
        <QuotedRequests
          view={ProfessionalRepairRequestView.LOST}
          caption={t('jobs.lostHeading')}
          emptyTitle={t('jobs.noLost')}
          columns={lost}
        />
      </Stack>
      <ConfirmDialog
        open={withdrawing !== null}
        title={t('jobs.withdrawQuestion')}
        confirmLabel={t('jobs.withdraw')}
        destructive
        loading={withdraw.isPending}
        onCancel={() => setWithdrawing(null)}
        onConfirm={confirmWithdraw}
      >
        {t('jobs.withdrawBody', { service: withdrawing?.service ?? '' })}
      </ConfirmDialog>
    </Stack>
  );
}
