import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { ProfessionalRepairRequestView } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useQuotedRequestColumns } from '../components/quoted-request-columns';
import { QuotedRequests } from '../components/quoted-requests';

/** /completed-requests: the jobs the professional was hired on and the customer marked done. */
export function CompletedRequestsPage() {
  const { t } = useTranslation();
  const columns = useQuotedRequestColumns(['service', 'place', 'hours', 'fee', 'completed']);
  return (
    <Stack gap="6">
      <PageTitle title={t('pages.completedRequests')} />
      <QuotedRequests
        view={ProfessionalRepairRequestView.COMPLETED}
        caption={t('jobs.completedCaption')}
        emptyTitle={t('requests.noRecords')}
        columns={columns}
      />
    </Stack>
  );
}
