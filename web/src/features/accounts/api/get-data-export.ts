import { useQuery } from '@connectrpc/connect-query';
import { AccountsService, DataExportState, type Role } from '@/gen/repairs/accounts/v1/accounts_pb';

/** How often the copy is asked again while it is being prepared (usually under a minute). */
export const PREPARING_REFRESH_MS = 3_000;

/**
 * How often a ready copy is asked again while the page is open: its download link works for
 * 10 minutes, so a fresh one comes well before the old one stops.
 */
const READY_REFRESH_MS = 5 * 60_000;

/** Whose copy an admin looks at: the person's account id, a customer's or a professional's. */
export interface DataExportOwner {
  accountId: string;
  role: Role;
}

/**
 * The latest copy of the caller's data (AccountsService.GetDataExport; `export` unset when
 * none was asked for): asked again every few seconds while it is being prepared, and, once
 * ready, often enough that its download link always works. Never kept stale: a link read
 * earlier may have stopped working.
 *
 * An admin names the person (`owner`). Every link given to an admin is recorded in the audit
 * log, so theirs is asked for on opening and while the copy is prepared only, never again by
 * itself once ready: a fresh link is asked for with `refetch`.
 */
export function useDataExport(owner?: DataExportOwner) {
  return useQuery(
    AccountsService.method.getDataExport,
    owner ? { accountId: owner.accountId, role: owner.role } : {},
    {
      staleTime: 0,
      refetchInterval: (query) => {
        const state = query.state.data?.export?.state;
        if (state === DataExportState.PREPARING) return PREPARING_REFRESH_MS;
        if (state === DataExportState.READY && !owner) return READY_REFRESH_MS;
        return false;
      },
    },
  );
}
