import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useOrderColumns } from '../components/order-columns';
import { OrdersTable } from '../components/orders-table';
import { customerRequestPath } from '../paths';

/**
 * /user-order-history: the customer's hires, newest first, with the professional, what each
 * cost, the time taken, where its payment is and a link to the request.
 */
export function UserOrderHistoryPage() {
  const { t } = useTranslation();
  const customerId = useSignedInId('customer');
  const columns = useOrderColumns(
    ['date', 'professional', 'amount', 'time', 'state', 'request', 'receipt'],
    customerRequestPath,
    'customer',
  );
  return (
    <Stack gap="6">
      <PageTitle title={t('pages.userOrderHistory')} />
      <OrdersTable
        party={customerId ? { case: 'customerId', value: customerId } : null}
        caption={t('orders.caption')}
        emptyTitle={t('requests.noRecords')}
        columns={columns}
      />
    </Stack>
  );
}
