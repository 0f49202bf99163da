import { skipToken, useQuery } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * What deleting the licence `licenceId` would end (AccountsService.PreviewDeleteLicence), read
 * while its confirmation is open; nothing while none is being removed.
 */
export const usePreviewDeleteLicence = (licenceId: string | undefined) =>
  useQuery(AccountsService.method.previewDeleteLicence, licenceId ? { licenceId } : skipToken);
