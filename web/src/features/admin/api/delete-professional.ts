import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useAccountsDecision } from './refresh';

/** Deletes a professional (AccountsService.DeleteProfessional). */
export const useDeleteProfessional = () =>
  useAccountsDecision(AccountsService.method.deleteProfessional);
