import { Button, Dialog, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LinkButton } from '@/components/ui/links';
import { toaster } from '@/components/ui/toast';
import {
  CustomerRepairRequestView,
  RepairRequestState,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { readRpcError } from '@/lib/rpc-error';
import { useMoneyFormat } from '@/lib/use-money-format';
import { useCompleteRepairRequest } from '../api/complete-repair-request';
import { useHiredQuoteFee } from '../api/get-hired-quote-fee';
import { CustomerRequestsScreen } from '../components/customer-requests-screen';
import { useCustomerRequestColumns } from '../components/request-columns';
import { RequestStateBadge } from '../components/state-badge';
import { REQUEST_PATHS } from '../paths';

/** Why a capture failed when the card hold is gone: the card must be authorised again. */
const HOLD_GONE = ['AUTHORIZATION_EXPIRED', 'PAYMENT_STATE'];

/**
 * /user-active-requests: the customer's hired jobs (and those whose payment waits on the
 * cardholder). 'Mark Completed', after each job's facts and not styled as the page's call to
 * action, asks first, naming the amount the hire held on the card (the
 * hired quote's fee) and the professional; once confirmed the job ends and the server
 * captures the card hold; then the completed list. When the hold has lapsed the capture is
 * refused: the page offers to authorise the card again on the hired quote.
 */
export function ActiveRequestsPage() {
  const { t } = useTranslation();
  const navigate = useLocalizedNavigate();
  const complete = useCompleteRepairRequest();
  const [asking, setAsking] = useState<RepairRequest | null>(null);
  const fee = useHiredQuoteFee(asking?.hiredQuoteId || null);
  const [failed, setFailed] = useState<{ request: RepairRequest; error: unknown } | null>(null);

  const markDone = (request: RepairRequest) => {
    setFailed(null);
    complete.mutate(
      { id: request.id },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: t('requests.markedDone') });
          void navigate(REQUEST_PATHS.completed);
        },
        onError: (failure) => setFailed({ request, error: failure }),
        onSettled: () => setAsking(null),
      },
    );
  };
  const busy = complete.isPending ? complete.variables?.id : undefined;
  const columns = useCustomerRequestColumns(['view'], {
    professional: true,
    actions: (request) =>
      request.state === RepairRequestState.HIRED ? (
        // After the job's facts and View, and not a call to action: it charges the card.
        <Button
          variant="outline"
          colorPalette="brand"
          loading={busy === request.id}
          disabled={busy !== undefined}
          aria-label={t('requests.markCompletedFor', { name: request.hiredProfessionalName })}
          onClick={() => setAsking(request)}
        >
          {t('requests.markCompleted')}
        </Button>
      ) : (
        <RequestStateBadge state={request.state} />
      ),
  });
  const holdGone = failed && HOLD_GONE.includes(readRpcError(failed.error).reason);

  return (
    <CustomerRequestsScreen
      title={t('pages.userActiveRequests')}
      view={CustomerRepairRequestView.ACTIVE}
      caption={t('requests.activeCaption')}
      emptyTitle={t('requests.noRecords')}
      columns={columns}
    >
      {failed && (
        <Stack gap="3" align="flex-start">
          <RpcErrorAlert error={failed.error} />
          {holdGone && failed.request.hiredQuoteId && (
            <LinkButton to={REQUEST_PATHS.hire(failed.request.hiredQuoteId)} colorPalette="brand">
              {t('requests.authoriseAgain')}
            </LinkButton>
          )}
        </Stack>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={t('requests.completeQuestion')}
        confirmLabel={t('requests.markCompleted')}
        confirmDisabled={!fee.data}
        loading={complete.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() => asking && markDone(asking)}
      >
        {asking && <CompletionCharge fee={fee} professionalName={asking.hiredProfessionalName} />}
      </ConfirmDialog>
    </CustomerRequestsScreen>
  );
}

/**
 * What confirming charges and for whose work: a loader until the fee is known, or why it
 * could not be. Always there from the opening, so it describes the dialog to screen readers.
 */
function CompletionCharge({
  fee,
  professionalName,
}: {
  fee: ReturnType<typeof useHiredQuoteFee>;
  professionalName: string;
}) {
  const { t } = useTranslation();
  const formatMoney = useMoneyFormat();
  return (
    <Dialog.Description color="fg">
      {fee.error ? (
        <RpcErrorAlert error={fee.error} title={t('requests.completeFeeFailed')} />
      ) : fee.data ? (
        t('requests.completeCharge', { amount: formatMoney(fee.data), name: professionalName })
      ) : (
        <HStack gap="3" role="status">
          <Spinner size="sm" />
          <Text>{t('common.loading')}</Text>
        </HStack>
      )}
    </Dialog.Description>
  );
}
