import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/**
 * Asks for a copy of the caller's data, or an admin for a person's (AccountsService.
 * RequestDataExport), then reloads where it stands (and the audit log, where an admin's
 * request is recorded). Asking while one is being prepared answers that one.
 */
export function useRequestDataExport() {
  return useRefreshingMutation(
    AccountsService.method.requestDataExport,
    AccountsService.method.getDataExport,
    AccountsService.method.listAuditEvents,
  );
}
