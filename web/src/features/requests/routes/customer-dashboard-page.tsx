import { Heading, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PagedList } from '@/components/paged-list';
import { PageTitle } from '@/components/page-title';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FigureCards } from '@/components/ui/figure-cards';
import { UnreadConversations } from '@/features/conversations';
import { CustomerRepairRequestView } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useCustomerDashboard } from '../api/get-customer-dashboard';
import { useCustomerRequestsPage } from '../api/list-customer-repair-requests';
import { useCustomerRequestColumns } from '../components/request-columns';

/** The pending requests the dashboard shows at once; the rest are a page away. */
const DASHBOARD_PAGE_SIZE = 5;

/**
 * /user-dashboard: the four counters (requests posted, quotes received, professionals
 * hired, requests completed), the pending requests with their quotes, and the messages:
 * how many are unread and the newest conversations.
 */
export function CustomerDashboardPage() {
  const { t } = useTranslation();
  const customerId = useSignedInId('customer');
  const counters = useCustomerDashboard(customerId);
  const pages = usePageTokens();
  const pending = useCustomerRequestsPage(
    customerId,
    CustomerRepairRequestView.PENDING,
    pages.token,
    DASHBOARD_PAGE_SIZE,
  );
  const columns = useCustomerRequestColumns(['view', 'applications']);
  // The cards are on screen from the start, their figures filled in when they arrive.
  const figures: [string, number | undefined][] = [
    [t('requests.dashboard.posted'), counters.data?.requestsPosted],
    [t('requests.dashboard.received'), counters.data?.quotesReceived],
    [t('requests.dashboard.shortlisted'), counters.data?.professionalsHired],
    [t('requests.dashboard.completed'), counters.data?.requestsCompleted],
  ];

  return (
    <Stack gap="8">
      <PageTitle title={t('pages.userDashboard')} />
      {counters.error && <RpcErrorAlert error={counters.error} />}
      <FigureCards
        label={t('requests.dashboard.counters')}
        busy={counters.isPending}
        figures={figures}
      />
      <Stack as="section" gap="4" aria-labelledby="pending-heading">
        <Heading as="h2" id="pending-heading" size="lg" color="brand.900">
          {t('requests.dashboard.pending')}
        </Heading>
        <PagedList
          caption={t('requests.dashboard.pending')}
          emptyTitle={t('requests.none')}
          columns={columns}
          rowKey={(request) => request.id}
          rows={pending.data?.repairRequests}
          nextPageToken={pending.data?.nextPageToken ?? ''}
          isPending={pending.isPending}
          error={pending.error}
          pages={pages}
        />
      </Stack>
      <UnreadConversations reader="customer" />
    </Stack>
  );
}
