import { Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { PagedList } from '@/components/paged-list';
import { PageTitle } from '@/components/page-title';
import type { Column } from '@/components/ui/simple-table';
import type {
  CustomerRepairRequestView,
  RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useCustomerRequestsPage } from '../api/list-customer-repair-requests';

interface CustomerRequestsScreenProps {
  title: string;
  view: CustomerRepairRequestView;
  /** What the table lists, for screen readers. */
  caption: string;
  emptyTitle: string;
  columns: Column<RepairRequest>[];
  /** Shown between the title and the list (what an action on a row came to). */
  children?: ReactNode;
}

/** A screen listing the signed-in customer's requests of one view, newest first, paged. */
export function CustomerRequestsScreen({
  title,
  view,
  caption,
  emptyTitle,
  columns,
  children,
}: CustomerRequestsScreenProps) {
  const customerId = useSignedInId('customer');
  const pages = usePageTokens();
  const { data, isPending, error } = useCustomerRequestsPage(customerId, view, pages.token);
  return (
    <Stack gap="6">
      <PageTitle title={title} />
      {children}
      <PagedList
        caption={caption}
        emptyTitle={emptyTitle}
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
