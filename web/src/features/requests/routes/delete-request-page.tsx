import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { useRepairRequest } from '../api/get-repair-request';
import { RequestFacts } from '../components/request-facts';
import { useDeleteRequest } from '../components/use-delete-request';
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
  const { data, isPending, error } = useRepairRequest(id);
  const deletion = useDeleteRequest();
  const back = () => void navigate(REQUEST_PATHS.pending, { replace: true });
  const request = data?.repairRequest;

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
            loading={deletion.deleting}
            // A refusal was said in a toast; the question stays.
            onConfirm={() => deletion.remove(id).catch(() => {})}
            onCancel={back}
          >
            {t('requests.deleteBody')}
          </ConfirmDialog>
        </>
      )}
    </Stack>
  );
}
