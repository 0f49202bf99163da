import { Stack } from '@chakra-ui/react';
import { EmptyState } from '@/components/empty-state';
import { ListLoader } from '@/components/list-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { Pager } from '@/components/ui/pager';
import { SimpleTable, type Column } from '@/components/ui/simple-table';
import type { usePageTokens } from '@/lib/use-page-tokens';

interface PagedListProps<Row> {
  caption: string;
  emptyTitle: string;
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  /** The page's answer: its rows and the next page's token. */
  rows: Row[] | undefined;
  nextPageToken: string;
  isPending: boolean;
  error: unknown;
  pages: ReturnType<typeof usePageTokens>;
}

/** A paged list: loading, failure, empty and the table with its pager. */
export function PagedList<Row>({
  caption,
  emptyTitle,
  columns,
  rowKey,
  rows,
  nextPageToken,
  isPending,
  error,
  pages,
}: PagedListProps<Row>) {
  if (isPending) return <ListLoader />;
  if (error) return <RpcErrorAlert error={error} />;
  if (!rows || rows.length === 0) return <EmptyState title={emptyTitle} />;
  return (
    <Stack gap="4">
      <SimpleTable caption={caption} columns={columns} rows={rows} rowKey={rowKey} />
      <Pager
        page={pages.page}
        nextToken={nextPageToken}
        onNext={pages.next}
        onPrevious={pages.previous}
      />
    </Stack>
  );
}
