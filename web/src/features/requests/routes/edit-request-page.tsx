import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { AppLink } from '@/components/ui/links';
import { toaster } from '@/components/ui/toast';
import { RepairRequestState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { useRepairRequest } from '../api/get-repair-request';
import { useUpdateRepairRequest } from '../api/update-repair-request';
import { RequestForm, type RepairRequestDraft } from '../components/request-form';
import { REQUEST_PATHS } from '../paths';

/** /edit-request/{id} (Update Request): the request form filled with an open request. */
export function EditRequestPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useLocalizedNavigate();
  const { data, isPending, error } = useRepairRequest(id);
  const update = useUpdateRepairRequest();
  const request = data?.repairRequest;

  const send = async (draft: RepairRequestDraft) => {
    await update.mutateAsync({ id, draft });
    toaster.create({ type: 'success', title: t('requests.updated') });
    void navigate(REQUEST_PATHS.view(id));
  };

  return (
    <Stack gap="6" maxW="3xl">
      <AppLink to={REQUEST_PATHS.pending} color="brand.fg">
        {t('requests.backToPending')}
      </AppLink>
      <PageTitle title={t('pages.editRequest')} />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {request && request.state !== RepairRequestState.OPEN && (
        <FormAlert status="info" title={t('requests.notOpen')} />
      )}
      {request?.state === RepairRequestState.OPEN && (
        <RequestForm
          request={request}
          submitLabel={t('requests.update')}
          onSend={send}
          sending={update.isPending}
        />
      )}
    </Stack>
  );
}
