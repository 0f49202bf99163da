import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toaster } from '@/components/ui/toast';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { readRpcError } from '@/lib/rpc-error';
import { useCancelRepairRequest } from '../api/cancel-repair-request';
import { useRepairRequest } from '../api/get-repair-request';
import { RequestFacts } from '../components/request-facts';
import { REQUEST_PATHS } from '../paths';

/**
 * /delete-request/{id}: the request and 'Do you want to delete this request?'. Deleting
 * cancels it (professionals who quoted are told), says 'Deleted Successfully' and goes back
 * to the pending requests; cancelling the dialog goes back without a change.
 */
export function DeleteRequestPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useLocalizedNavigate();
  const problemMessage = useProblemMessage();
  const { data, isPending, error } = useRepairRequest(id);
  const cancel = useCancelRepairRequest();
  const back = () => void navigate(REQUEST_PATHS.pending, { replace: true });
  const request = data?.repairRequest;

  const confirm = () =>
    cancel.mutate(
      { id },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: t('requests.deleted') });
          back();
        },
        onError: (failure) =>
          toaster.create({ type: 'error', title: problemMessage(readRpcError(failure)) }),
      },
    );

  return (
    <Stack gap="6" maxW="3xl">
      <PageTitle title={t('pages.deleteRequest')} />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {request && (
        <>
          <RequestFacts request={request} />
          <ConfirmDialog
            open
            title={t('requests.deleteQuestion')}
            confirmLabel={t('common.delete')}
            destructive
            loading={cancel.isPending}
            onConfirm={confirm}
            onCancel={back}
          >
            {t('requests.deleteBody')}
          </ConfirmDialog>
        </>
      )}
    </Stack>
  );
}
