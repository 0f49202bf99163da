import { useMutation } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * Uploads one licence document (AccountsService.AddLicence). The licence page reloads the
 * professional once all its rows are sent.
 */
export function useAddLicence() {
  return useMutation(AccountsService.method.addLicence);
}
