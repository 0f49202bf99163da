import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PagedList } from '@/components/paged-list';
import { PageTitle } from '@/components/page-title';
import { CustomerRepairRequestView } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useCustomerRequestsPage } from '../api/list-customer-repair-requests';
import { useCustomerRequestColumns } from '../components/request-columns';

/** /pending-requests: the customer's open requests, newest first, to view, edit or delete. */
export function PendingRequestsPage() {
  const { t } = useTranslation();
  const customerId = useSignedInId('customer');
  const pages = usePageTokens();
  const { data, isPending, error } = useCustomerRequestsPage(
    customerId,
    CustomerRepairRequestView.PENDING,
    pages.token,
  );
  const columns = useCustomerRequestColumns(['view', 'edit', 'remove']);
  return (
    <Stack gap="6">
      <PageTitle title={t('pages.pendingRequests')} />
      <PagedList
        caption={t('requests.listCaption')}
        emptyTitle={t('requests.none')}
        columns={columns}
        rowKey={(request) => request.id}
        rows={data?.repairRequests}
        nextPageToken={data?.nextPageToken ?? ''}
        isPending={isPending}
        error={error}
        pages={pages}
      />
    </Stack>
  );
}
