import { PagedList } from '@/components/paged-list';
import type { Column } from '@/components/ui/simple-table';
import { InactiveMembershipNotice, isMembershipInactive } from '@/features/professionals';
import type {
  ProfessionalRepairRequestView,
  QuotedRepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useProfessionalRequestsPage } from '../api/list-professional-repair-requests';
import { quotedRowKey } from './quoted-request-columns';

interface QuotedRequestsProps {
  view: ProfessionalRepairRequestView;
  caption: string;
  emptyTitle: string;
  columns: Column<QuotedRepairRequest>[];
}

/**
 * One of the signed-in professional's lists of requests they quoted on, page by page, with
 * its loading, empty and error states; the inactive-membership notice when the server
 * answers the membership reason.
 */
export function QuotedRequests({ view, caption, emptyTitle, columns }: QuotedRequestsProps) {
  const professionalId = useSignedInId('professional');
  const pages = usePageTokens();
  const { data, isPending, error } = useProfessionalRequestsPage(professionalId, view, pages.token);
  if (professionalId && isMembershipInactive(error)) {
    return <InactiveMembershipNotice professionalId={professionalId} />;
  }
  return (
    <PagedList
      caption={caption}
      emptyTitle={emptyTitle}
      columns={columns}
      rowKey={quotedRowKey}
      rows={data?.repairRequests}
      nextPageToken={data?.nextPageToken ?? ''}
      isPending={isPending}
      error={error}
      pages={pages}
    />
  );
}
