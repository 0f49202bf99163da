import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/**
 * Asks for a copy of the caller's data (AccountsService.RequestDataExport), then reloads
 * where it stands. Asking while one is being prepared answers that one.
 */
export function useRequestDataExport() {
  return useRefreshingMutation(
    AccountsService.method.requestDataExport,
    AccountsService.method.getDataExport,
  );
}
