import { useQuery } from '@connectrpc/connect-query';
import { AccountsService, DataExportState } from '@/gen/repairs/accounts/v1/accounts_pb';

/** How often the copy is asked again while it is being prepared (usually under a minute). */
export const PREPARING_REFRESH_MS = 3_000;

/**
 * How often a ready copy is asked again while the page is open: its download link works for
 * 10 minutes, so a fresh one comes well before the old one stops.
 */
const READY_REFRESH_MS = 5 * 60_000;

/**
 * The caller's latest copy of their data (AccountsService.GetDataExport; `export` unset when
 * none was asked for): asked again every few seconds while it is being prepared, and, once
 * ready, often enough that its download link always works. Never kept stale: a link read
 * earlier may have stopped working.
 */
export function useDataExport() {
  return useQuery(
    AccountsService.method.getDataExport,
    {},
    {
      staleTime: 0,
      refetchInterval: (query) => {
        const state = query.state.data?.export?.state;
        if (state === DataExportState.PREPARING) return PREPARING_REFRESH_MS;
        if (state === DataExportState.READY) return READY_REFRESH_MS;
        return false;
      },
    },
  );
}
