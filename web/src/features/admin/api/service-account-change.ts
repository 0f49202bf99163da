import type { DescMessage, DescMethodUnary } from '@bufbuild/protobuf';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/** A change to the service accounts (create, rotate, revoke): the list and the audit log reload. */
export function useServiceAccountChange<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
) {
  return useRefreshingMutation(
    method,
    AccountsService.method.listServiceAccounts,
    AccountsService.method.listAuditEvents,
  );
}
