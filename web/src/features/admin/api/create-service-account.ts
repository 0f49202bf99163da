import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useServiceAccountChange } from './service-account-change';

/** Makes a service account; the answer holds its key, once (AccountsService.CreateServiceAccount). */
export const useCreateServiceAccount = () =>
  useServiceAccountChange(AccountsService.method.createServiceAccount);
