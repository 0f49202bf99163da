import type { DescMessage, DescMethodUnary } from '@bufbuild/protobuf';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/**
 * An admin decision (approve, deny, delete): after it the account lists, the records and the
 * audit log reload.
 */
export function useAccountsDecision<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
) {
  return useRefreshingMutation(
    method,
    AccountsService.method.listProfessionals,
    AccountsService.method.getProfessional,
    AccountsService.method.listCustomers,
    AccountsService.method.getCustomer,
    AccountsService.method.listAuditEvents,
  );
}
