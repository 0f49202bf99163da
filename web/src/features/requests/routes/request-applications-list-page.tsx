import { useTranslation } from 'react-i18next';
import { CustomerRepairRequestView } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { CustomerRequestsScreen } from '../components/customer-requests-screen';
import { useCustomerRequestColumns } from '../components/request-columns';

/** /request-applications-list: the customer's open requests that have quotes, to see them. */
export function RequestApplicationsListPage() {
  const { t } = useTranslation();
  const columns = useCustomerRequestColumns(['view', 'applications']);
  return (
    <CustomerRequestsScreen
      title={t('pages.requestApplicationsList')}
      view={CustomerRepairRequestView.WITH_QUOTES}
      caption={t('requests.withQuotesCaption')}
      emptyTitle={t('requests.noRecords')}
      columns={columns}
    />
  );
}
