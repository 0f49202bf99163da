import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { PROFESSIONAL_REQUEST_PATHS } from '@/features/professionals';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useOrderColumns } from '../components/order-columns';
import { OrdersTable } from '../components/orders-table';

/**
 * /professional-order-history: the professional's hires, newest first, with the spec's
 * columns (User, Charges, Time Taken, Request) and where each payment is; the
 * inactive-membership notice when the server answers the membership reason.
 */
export function ProfessionalOrderHistoryPage() {
  const { t } = useTranslation();
  const professionalId = useSignedInId('professional');
  const columns = useOrderColumns(
    ['date', 'customer', 'amount', 'time', 'state', 'request', 'receipt'],
    PROFESSIONAL_REQUEST_PATHS.view,
    'professional',
  );
  return (
    <Stack gap="6">
      <PageTitle title={t('pages.professionalOrderHistory')} />
      <OrdersTable
        party={professionalId ? { case: 'professionalId', value: professionalId } : null}
        caption={t('orders.caption')}
        emptyTitle={t('requests.noRecords')}
        columns={columns}
      />
    </Stack>
  );
}
