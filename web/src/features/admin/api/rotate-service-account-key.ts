import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useServiceAccountChange } from './service-account-change';

/** Gives a service account a new key, shown once (AccountsService.RotateServiceAccountKey). */
export const useRotateServiceAccountKey = () =>
  useServiceAccountChange(AccountsService.method.rotateServiceAccountKey);
