import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useAccountsDecision } from './refresh';

/** Approves a professional (AccountsService.ApproveProfessional). */
export const useApproveProfessional = () =>
  useAccountsDecision(AccountsService.method.approveProfessional);
