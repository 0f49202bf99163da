import { PagedList } from '@/components/paged-list';
import type { Column } from '@/components/ui/simple-table';
import { InactiveMembershipNotice, isMembershipInactive } from '@/features/professionals';
import type { Order } from '@/gen/repairs/billing/v1/billing_pb';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useOrdersPage, type OrderParty } from '../api/list-orders';

interface OrdersTableProps {
  /** Whose orders; null while the signed-in id is not known. */
  party: OrderParty | null;
  caption: string;
  emptyTitle: string;
  columns: Column<Order>[];
}

/**
 * An order history, page by page, with its loading, empty and error states; for a
 * professional refused by the membership gate, the inactive-membership notice.
 */
export function OrdersTable({ party, caption, emptyTitle, columns }: OrdersTableProps) {
  const pages = usePageTokens();
  const { data, isPending, error } = useOrdersPage(party, pages.token);
  if (party?.case === 'professionalId' && isMembershipInactive(error)) {
    return <InactiveMembershipNotice professionalId={party.value} />;
  }
  return (
    <PagedList
      caption={caption}
      emptyTitle={emptyTitle}
      columns={columns}
      rowKey={(order) => order.id}
      rows={data?.orders}
      nextPageToken={data?.nextPageToken ?? ''}
      isPending={isPending}
      error={error}
      pages={pages}
    />
  );
}
