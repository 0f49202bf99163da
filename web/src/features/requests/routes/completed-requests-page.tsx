import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { RowActionLink } from '@/components/ui/row-actions';
import { CustomerRepairRequestView } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { CustomerRequestsScreen } from '../components/customer-requests-screen';
import { useCustomerRequestColumns } from '../components/request-columns';
import { REQUEST_PATHS } from '../paths';

/** /user-completed-requests: finished jobs, each with 'Submit Review' or 'Review Submitted'. */
export function CompletedRequestsPage() {
  const { t } = useTranslation();
  const columns = useCustomerRequestColumns(['view'], {
    professional: true,
    actions: (request) =>
      request.reviewed ? (
        <Badge colorPalette="green" variant="subtle">
          {t('requests.reviewSubmitted')}
        </Badge>
      ) : (
        <RowActionLink
          to={REQUEST_PATHS.review(request.hiredProfessionalId, request.id)}
          label={t('requests.submitReviewFor', { name: request.hiredProfessionalName })}
          primary
        >
          {t('requests.submitReview')}
        </RowActionLink>
      ),
  });
  return (
    <CustomerRequestsScreen
      title={t('pages.userCompletedRequests')}
      view={CustomerRepairRequestView.COMPLETED}
      caption={t('requests.completedCaption')}
      emptyTitle={t('requests.noRecords')}
      columns={columns}
    />
  );
}
