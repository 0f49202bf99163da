import { useTranslation } from 'react-i18next';
import { CustomerRepairRequestView } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { CustomerRequestsScreen } from '../components/customer-requests-screen';
import { useCustomerRequestColumns } from '../components/request-columns';

/** /pending-requests: the customer's open requests, newest first, to view, edit or delete. */
export function PendingRequestsPage() {
  const { t } = useTranslation();
  const columns = useCustomerRequestColumns(['view', 'edit', 'remove']);
  return (
    <CustomerRequestsScreen
      title={t('pages.pendingRequests')}
      view={CustomerRepairRequestView.PENDING}
      caption={t('requests.listCaption')}
      emptyTitle={t('requests.none')}
      columns={columns}
    />
  );
}
