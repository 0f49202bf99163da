import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PagedList } from '@/components/paged-list';
import { PageTitle } from '@/components/page-title';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useOrdersPage } from '../api/list-orders';
import { useOrderColumns } from '../components/order-columns';

/** /user-order-history: the customer's hires, newest first, with what each cost and where it is. */
export function UserOrderHistoryPage() {
  const { t } = useTranslation();
  const customerId = useSignedInId('customer');
  const pages = usePageTokens();
  const { data, isPending, error } = useOrdersPage(
    { case: 'customerId', value: customerId ?? '' },
    pages.token,
    customerId !== null,
  );
  const columns = useOrderColumns('customer');
  return (
    <Stack gap="6">
      <PageTitle title={t('pages.userOrderHistory')} />
      <PagedList
        caption={t('jobs.orders.caption')}
        emptyTitle={t('requests.noRecords')}
        columns={columns}
        rowKey={(order) => order.id}
        rows={data?.orders}
        nextPageToken={data?.nextPageToken ?? ''}
        isPending={isPending}
        error={error}
        pages={pages}
      />
    </Stack>
  );
}
