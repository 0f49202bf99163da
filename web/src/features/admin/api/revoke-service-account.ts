import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useServiceAccountChange } from './service-account-change';

/** Stops every key of a service account (AccountsService.RevokeServiceAccount). */
export const useRevokeServiceAccount = () =>
  useServiceAccountChange(AccountsService.method.revokeServiceAccount);
